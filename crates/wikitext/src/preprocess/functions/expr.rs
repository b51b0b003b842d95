//! `#expr`: MediaWiki's expression language (ParserFunctions' `ExprParser`), a
//! shunting-yard evaluator over floats.
//!
//! Numbers (`12`, `1.5`, `.5`), `e` and `pi`; unary `-`, `+`, `not` and the
//! functions `sin cos tan asin acos atan exp ln abs floor ceil trunc sqrt`;
//! binary `^`, `* / div mod fmod`, `+ -`, `round`, `e` (`2e3` = 2000),
//! comparisons `= != <> < > <= >=`, `and`, `or`; parentheses. Precedence and
//! left-associativity as in MediaWiki (so `2^3^2` is 64). Results print like PHP
//! floats (14 significant digits, `1.0E+20`); errors are MediaWiki's messages
//! (`Expression error: Unexpected number.`).

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Negative,
    Positive,
    Plus,
    Minus,
    Times,
    Divide,
    Mod,
    Fmod,
    Open,
    And,
    Or,
    Not,
    Equality,
    Less,
    Greater,
    LessEq,
    GreaterEq,
    NotEq,
    Round,
    Exponent,
    Pow,
    Func(Func),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Exp,
    Ln,
    Abs,
    Floor,
    Trunc,
    Ceil,
    Sqrt,
}

impl Op {
    fn precedence(self) -> i32 {
        match self {
            Op::Negative | Op::Positive | Op::Exponent => 10,
            Op::Func(_) | Op::Not => 9,
            Op::Pow => 8,
            Op::Times | Op::Divide | Op::Mod | Op::Fmod => 7,
            Op::Plus | Op::Minus => 6,
            Op::Round => 5,
            Op::Equality | Op::Less | Op::Greater | Op::LessEq | Op::GreaterEq | Op::NotEq => 4,
            Op::And => 3,
            Op::Or => 2,
            Op::Open => -1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Op::Negative | Op::Minus => "-",
            Op::Positive | Op::Plus => "+",
            Op::Times => "*",
            Op::Divide => "/",
            Op::Mod => "mod",
            Op::Fmod => "fmod",
            Op::Open => "(",
            Op::And => "and",
            Op::Or => "or",
            Op::Not => "not",
            Op::Equality => "=",
            Op::Less => "<",
            Op::Greater => ">",
            Op::LessEq => "<=",
            Op::GreaterEq => ">=",
            Op::NotEq => "<>",
            Op::Round => "round",
            Op::Exponent => "e",
            Op::Pow => "^",
            Op::Func(f) => match f {
                Func::Sin => "sin",
                Func::Cos => "cos",
                Func::Tan => "tan",
                Func::Asin => "asin",
                Func::Acos => "acos",
                Func::Atan => "atan",
                Func::Exp => "exp",
                Func::Ln => "ln",
                Func::Abs => "abs",
                Func::Floor => "floor",
                Func::Trunc => "trunc",
                Func::Ceil => "ceil",
                Func::Sqrt => "sqrt",
            },
        }
    }
}

/// An `#expr` error, with MediaWiki's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExprError {
    UnexpectedNumber,
    UnrecognisedWord(String),
    UnexpectedOperator(String),
    MissingOperand(&'static str),
    UnexpectedClosingBracket,
    UnrecognisedPunctuation(char),
    UnclosedBracket,
    DivisionByZero(&'static str),
    InvalidArgument(&'static str),
    InvalidArgumentLn,
    NotANumber(&'static str),
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExprError::UnexpectedNumber => f.write_str("Expression error: Unexpected number."),
            ExprError::UnrecognisedWord(w) => {
                write!(f, "Expression error: Unrecognized word \"{w}\".")
            }
            ExprError::UnexpectedOperator(o) => {
                write!(f, "Expression error: Unexpected {o} operator.")
            }
            ExprError::MissingOperand(o) => write!(f, "Expression error: Missing operand for {o}."),
            ExprError::UnexpectedClosingBracket => {
                f.write_str("Expression error: Unexpected closing bracket.")
            }
            ExprError::UnrecognisedPunctuation(c) => {
                write!(
                    f,
                    "Expression error: Unrecognized punctuation character \"{c}\"."
                )
            }
            ExprError::UnclosedBracket => f.write_str("Expression error: Unclosed bracket."),
            ExprError::DivisionByZero(_) => f.write_str("Division by zero."),
            ExprError::InvalidArgument(o) => write!(f, "Invalid argument for {o}: < -1 or > 1."),
            ExprError::InvalidArgumentLn => f.write_str("Invalid argument for ln: <= 0."),
            ExprError::NotANumber(o) => write!(f, "In {o}: result is not a number."),
        }
    }
}

impl ExprError {
    /// The error as MediaWiki shows it.
    pub(crate) fn markup(&self) -> String {
        let msg = self
            .to_string()
            .replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        format!("<strong class=\"error\">{msg}</strong>")
    }
}

/// Whether an `#expr` result counts as true (`#ifexpr`).
pub(crate) fn truthy(v: &str) -> bool {
    !matches!(v.parse::<f64>(), Ok(x) if x == 0.0)
}

/// Evaluates an expression; the empty expression gives the empty string.
pub(crate) fn evaluate(expr: &str) -> Result<String, ExprError> {
    let expr = expr
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&minus;", "-")
        .replace('\u{2212}', "-");
    let mut operands: Vec<f64> = Vec::new();
    let mut operators: Vec<Op> = Vec::new();
    let mut expecting_expr = true;
    let b = expr.as_bytes();
    let mut p = 0;
    while p < b.len() {
        let Some(c) = expr[p..].chars().next() else {
            break;
        };
        if matches!(c, ' ' | '\t' | '\r' | '\n') {
            p += 1;
            continue;
        }
        let op;
        if c.is_ascii_digit() || c == '.' {
            if !expecting_expr {
                return Err(ExprError::UnexpectedNumber);
            }
            let len = b[p..]
                .iter()
                .take_while(|x| x.is_ascii_digit() || **x == b'.')
                .count();
            operands.push(php_float_prefix(&expr[p..p + len]));
            p += len;
            expecting_expr = false;
            continue;
        } else if c.is_ascii_alphabetic() {
            let len = b[p..]
                .iter()
                .take_while(|x| x.is_ascii_alphabetic())
                .count();
            let word = expr[p..p + len].to_ascii_lowercase();
            p += len;
            let w = match word.as_str() {
                "mod" => Op::Mod,
                "fmod" => Op::Fmod,
                "and" => Op::And,
                "or" => Op::Or,
                "not" => Op::Not,
                "round" => Op::Round,
                "div" => Op::Divide,
                "e" => Op::Exponent,
                "pi" => {
                    if !expecting_expr {
                        return Err(ExprError::UnexpectedNumber);
                    }
                    operands.push(std::f64::consts::PI);
                    expecting_expr = false;
                    continue;
                }
                "sin" => Op::Func(Func::Sin),
                "cos" => Op::Func(Func::Cos),
                "tan" => Op::Func(Func::Tan),
                "asin" => Op::Func(Func::Asin),
                "acos" => Op::Func(Func::Acos),
                "atan" => Op::Func(Func::Atan),
                "exp" => Op::Func(Func::Exp),
                "ln" => Op::Func(Func::Ln),
                "abs" => Op::Func(Func::Abs),
                "floor" => Op::Func(Func::Floor),
                "trunc" => Op::Func(Func::Trunc),
                "ceil" => Op::Func(Func::Ceil),
                "sqrt" => Op::Func(Func::Sqrt),
                _ => return Err(ExprError::UnrecognisedWord(word)),
            };
            match w {
                Op::Exponent if expecting_expr => {
                    operands.push(std::f64::consts::E);
                    expecting_expr = false;
                    continue;
                }
                Op::Not | Op::Func(_) => {
                    if !expecting_expr {
                        return Err(ExprError::UnexpectedOperator(word));
                    }
                    operators.push(w);
                    continue;
                }
                _ => op = w,
            }
        } else {
            let next = b.get(p + 1).copied();
            p += c.len_utf8();
            op = match c {
                '+' | '-' if expecting_expr => {
                    operators.push(if c == '+' { Op::Positive } else { Op::Negative });
                    continue;
                }
                '+' => Op::Plus,
                '-' => Op::Minus,
                '*' => Op::Times,
                '/' => Op::Divide,
                '^' => Op::Pow,
                '(' => {
                    if !expecting_expr {
                        return Err(ExprError::UnexpectedOperator("(".into()));
                    }
                    operators.push(Op::Open);
                    continue;
                }
                ')' => {
                    loop {
                        match operators.pop() {
                            Some(Op::Open) => break,
                            Some(o) => apply(o, &mut operands)?,
                            None => return Err(ExprError::UnexpectedClosingBracket),
                        }
                    }
                    expecting_expr = false;
                    continue;
                }
                '=' => Op::Equality,
                '<' if next == Some(b'=') => {
                    p += 1;
                    Op::LessEq
                }
                '<' if next == Some(b'>') => {
                    p += 1;
                    Op::NotEq
                }
                '<' => Op::Less,
                '>' if next == Some(b'=') => {
                    p += 1;
                    Op::GreaterEq
                }
                '>' => Op::Greater,
                '!' if next == Some(b'=') => {
                    p += 1;
                    Op::NotEq
                }
                c => return Err(ExprError::UnrecognisedPunctuation(c)),
            };
        }
        // A binary operator.
        if expecting_expr {
            return Err(ExprError::UnexpectedOperator(op.name().into()));
        }
        while let Some(&last) = operators.last() {
            if op.precedence() > last.precedence() {
                break;
            }
            operators.pop();
            apply(last, &mut operands)?;
        }
        operators.push(op);
        expecting_expr = true;
    }
    while let Some(op) = operators.pop() {
        if op == Op::Open {
            return Err(ExprError::UnclosedBracket);
        }
        apply(op, &mut operands)?;
    }
    Ok(operands
        .iter()
        .map(|&x| php_float(x))
        .collect::<Vec<_>>()
        .join("<br />\n"))
}

fn apply(op: Op, stack: &mut Vec<f64>) -> Result<(), ExprError> {
    let unary = matches!(op, Op::Negative | Op::Positive | Op::Not | Op::Func(_));
    let need = if unary { 1 } else { 2 };
    if stack.len() < need {
        return Err(ExprError::MissingOperand(op.name()));
    }
    let right = stack.pop().unwrap_or(0.0);
    let bool_f = |b: bool| if b { 1.0 } else { 0.0 };
    let v = if unary {
        let a = right;
        match op {
            Op::Negative => -a,
            Op::Not => bool_f(a == 0.0),
            Op::Func(f) => match f {
                Func::Sin => a.sin(),
                Func::Cos => a.cos(),
                Func::Tan => a.tan(),
                Func::Asin | Func::Acos if !(-1.0..=1.0).contains(&a) => {
                    return Err(ExprError::InvalidArgument(op.name()));
                }
                Func::Asin => a.asin(),
                Func::Acos => a.acos(),
                Func::Atan => a.atan(),
                Func::Exp => a.exp(),
                Func::Ln if a <= 0.0 => return Err(ExprError::InvalidArgumentLn),
                Func::Ln => a.ln(),
                Func::Abs => a.abs(),
                Func::Floor => a.floor(),
                Func::Trunc => a.trunc(),
                Func::Ceil => a.ceil(),
                Func::Sqrt => {
                    let r = a.sqrt();
                    if r.is_nan() {
                        return Err(ExprError::NotANumber("sqrt"));
                    }
                    r
                }
            },
            _ => a,
        }
    } else {
        let left = stack.pop().unwrap_or(0.0);
        match op {
            Op::Plus => left + right,
            Op::Minus => left - right,
            Op::Times => left * right,
            Op::Divide => {
                if right == 0.0 {
                    return Err(ExprError::DivisionByZero("/"));
                }
                left / right
            }
            Op::Mod => {
                let (l, r) = (php_int(left), php_int(right));
                if r == 0 {
                    return Err(ExprError::DivisionByZero("mod"));
                }
                l.wrapping_rem(r) as f64
            }
            Op::Fmod => {
                if right == 0.0 {
                    return Err(ExprError::DivisionByZero("fmod"));
                }
                left % right
            }
            Op::And => bool_f(left != 0.0 && right != 0.0),
            Op::Or => bool_f(left != 0.0 || right != 0.0),
            Op::Equality => bool_f(left == right),
            Op::NotEq => bool_f(left != right),
            Op::Less => bool_f(left < right),
            Op::Greater => bool_f(left > right),
            Op::LessEq => bool_f(left <= right),
            Op::GreaterEq => bool_f(left >= right),
            Op::Round => php_round(left, php_int(right)),
            Op::Exponent => left * 10f64.powf(right),
            Op::Pow => {
                let r = left.powf(right);
                if r.is_nan() {
                    return Err(ExprError::NotANumber("^"));
                }
                r
            }
            _ => right,
        }
    };
    stack.push(v);
    Ok(())
}

/// PHP's `(int)` of a float (truncation; out of range and NaN give 0).
fn php_int(x: f64) -> i64 {
    if x.is_finite() && x.abs() < 9.2e18 {
        x.trunc() as i64
    } else {
        0
    }
}

/// PHP's `round($x, $digits)`: half away from zero.
fn php_round(x: f64, digits: i64) -> f64 {
    let digits = digits.clamp(-308, 308) as i32;
    let m = 10f64.powi(digits.abs());
    if digits >= 0 {
        let r = (x * m).round() / m;
        if r.is_finite() { r } else { x }
    } else {
        (x / m).round() * m
    }
}

/// PHP's `(float)` of a run of digits and dots: the longest number prefix.
fn php_float_prefix(s: &str) -> f64 {
    let mut end = 0;
    let mut dot = false;
    for (k, c) in s.char_indices() {
        if c == '.' {
            if dot {
                break;
            }
            dot = true;
        }
        end = k + 1;
    }
    s[..end].parse().unwrap_or(0.0)
}

/// A float as PHP prints it (`precision` 14).
pub(crate) fn php_float(x: f64) -> String {
    if x.is_nan() {
        return "NAN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "INF" } else { "-INF" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{x:.13e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..14).contains(&exp) {
        let decimals = (13 - exp).max(0) as usize;
        let s = format!("{x:.decimals$}");
        trim_zeros(&s)
    } else {
        let mut m = trim_zeros(mant);
        if !m.contains('.') {
            m.push_str(".0");
        }
        format!("{m}E{}{}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(s: &str) -> String {
        evaluate(s).unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn arithmetic() {
        assert_eq!(ev("1 + 2 * 3"), "7");
        assert_eq!(ev("(1 + 2) * 3"), "9");
        assert_eq!(ev("-2^2"), "4");
        assert_eq!(ev("2^3^2"), "64");
        assert_eq!(ev("7 mod 3"), "1");
        assert_eq!(ev("-7 mod 3"), "-1");
        assert_eq!(ev("7 div 2"), "3.5");
        assert_eq!(ev("1/3"), "0.33333333333333");
        assert_eq!(ev("2.5 round 0"), "3");
        assert_eq!(ev("-2.5 round 0"), "-3");
        assert_eq!(ev("1234.5678 round -2"), "1200");
        assert_eq!(ev("2e3"), "2000");
        assert_eq!(ev("e"), "2.718281828459");
        assert_eq!(ev("pi"), "3.1415926535898");
        assert_eq!(ev("1e20"), "1.0E+20");
        assert_eq!(ev("0.00001"), "1.0E-5");
        assert_eq!(ev("3 > 2 and not 0"), "1");
        assert_eq!(ev("1 <> 1 or 2 != 2"), "0");
        assert_eq!(ev("trunc 2.7 + abs -1"), "3");
        assert_eq!(ev(""), "");
    }

    #[test]
    fn errors() {
        assert_eq!(ev("1 2"), "Expression error: Unexpected number.");
        assert_eq!(ev("foo"), "Expression error: Unrecognized word \"foo\".");
        assert_eq!(ev("1 +"), "Expression error: Missing operand for +.");
        assert_eq!(ev("* 2"), "Expression error: Unexpected * operator.");
        assert_eq!(ev("(1"), "Expression error: Unclosed bracket.");
        assert_eq!(ev("1)"), "Expression error: Unexpected closing bracket.");
        assert_eq!(ev("1/0"), "Division by zero.");
        assert_eq!(
            ev("1 # 2"),
            "Expression error: Unrecognized punctuation character \"#\"."
        );
        assert_eq!(ev("ln 0"), "Invalid argument for ln: <= 0.");
    }
}

//! Expansions: the ancestry of a sub-pipeline, its depth limit and loop detection.
//!
//! Each expansion (an include, later a template) runs in its own pipeline whose
//! [`Ctx`] carries a [`Frame`]: the expansion's name and a link to its parent's
//! frame. Frames are shared (`Arc`), so concurrent expansions of one page share the
//! list of their common ancestors, as the seed says. [`enter`] refuses a name that is
//! already an ancestor (a loop) and a frame past the depth limit; the handler turns
//! the [`ExpansionError`] into visible error markup, so neither hangs.

use std::sync::Arc;

use super::handler::Ctx;

/// One expansion in the chain from the top-level document.
#[derive(Debug)]
pub struct Frame {
    name: Box<str>,
    depth: usize,
    parent: Option<Arc<Frame>>,
}

impl Frame {
    /// What is being expanded (for an include, its resolved path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// 1 for an expansion in the top-level document, 2 inside that, …
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The frames from this one up to the outermost.
    pub fn ancestry(&self) -> impl Iterator<Item = &Frame> {
        std::iter::successors(Some(self), |f| f.parent.as_deref())
    }
}

/// Why an expansion was not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpansionError {
    /// The expansion would be deeper than the limit.
    #[error("expansion of {name} is deeper than the limit of {limit}")]
    TooDeep {
        /// What was to be expanded.
        name: String,
        /// The limit.
        limit: usize,
    },
    /// The name is already being expanded further up (`chain`: outermost first,
    /// ending with the repeated name).
    #[error("expansion loop: {}", chain.join(" -> "))]
    Loop {
        /// The names from the first occurrence to the repetition.
        chain: Vec<String>,
    },
}

/// The context for expanding `name` inside `ctx`: one frame deeper, or why not.
pub fn enter(ctx: &Ctx, name: &str) -> Result<Ctx, ExpansionError> {
    if let Some(frame) = &ctx.frame
        && let Some(hit) = frame.ancestry().position(|f| &*f.name == name)
    {
        let mut chain: Vec<String> = frame
            .ancestry()
            .take(hit + 1)
            .map(|f| f.name.to_string())
            .collect();
        chain.reverse();
        chain.push(name.to_owned());
        return Err(ExpansionError::Loop { chain });
    }
    let depth = ctx.depth() + 1;
    if depth > ctx.max_depth {
        return Err(ExpansionError::TooDeep {
            name: name.to_owned(),
            limit: ctx.max_depth,
        });
    }
    Ok(Ctx {
        frame: Some(Arc::new(Frame {
            name: name.into(),
            depth,
            parent: ctx.frame.clone(),
        })),
        max_depth: ctx.max_depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_and_depth_are_refused() {
        let top = Ctx {
            frame: None,
            max_depth: 2,
        };
        let a = enter(&top, "a").unwrap();
        let b = enter(&a, "b").unwrap();
        assert_eq!(b.depth(), 2);
        assert_eq!(
            enter(&b, "a").err(),
            Some(ExpansionError::Loop {
                chain: vec!["a".into(), "b".into(), "a".into()]
            })
        );
        assert!(matches!(
            enter(&b, "c"),
            Err(ExpansionError::TooDeep { limit: 2, .. })
        ));
        // Siblings share the ancestry but not each other.
        assert!(enter(&a, "c").is_ok());
    }
}

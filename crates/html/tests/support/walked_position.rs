// The test oracle for source positions: line and column by walking every byte.
// Used by the integration tests (`support::walked_position`) and by the line
// tracker's unit tests (`src/tokenizer/lines.rs`, through `include!`: no inner doc comment here).

/// The one-based line and column (UTF-16 units; CR, LF and CR LF each end a line)
/// of byte `offset` (the end of `bytes` if past it), by walking every byte.
pub fn walked_position(bytes: &[u8], offset: usize) -> (u32, u32) {
    let (mut line, mut col, mut prev) = (1, 0, 0u8);
    for &b in bytes.get(..offset).unwrap_or(bytes) {
        if b == b'\r' || (b == b'\n' && prev != b'\r') {
            line += 1;
            col = 0;
        } else if b == b'\n' {
            col = 0;
        } else if (b as i8) >= -0x40 {
            // A lead byte: one UTF-16 unit, two for a 4-byte character.
            col += 1 + u32::from(b >= 0xF0);
        }
        prev = b;
    }
    (line, col + 1)
}

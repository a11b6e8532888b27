//! How a diagnostic quotes a piece of IR: the instruction's own text on one line, without
//! its trailing metadata attachments (`, !dbg !12`), cut to a length a terminal shows.

use ferrozyme_llvm::Value;

/// The longest quotation, in characters, before it is cut with `...`.
const QUOTE_CHARS: usize = 80;

/// `v` as a diagnostic quotes it: trimmed, metadata attachments dropped, at most
/// [`QUOTE_CHARS`] characters (cut on a character boundary, marked with `...`).
pub(crate) fn quote(v: Value) -> String {
    quote_text(&v.to_string())
}

fn quote_text(text: &str) -> String {
    let text = text.trim();
    let text = text.split(", !").next().unwrap_or_default();
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::quote_text;

    #[test]
    fn drops_metadata_and_cuts_long_text_on_a_character_boundary() {
        assert_eq!(
            quote_text("  %a = fadd double %x, %y, !dbg !7\n"),
            "%a = fadd double %x, %y"
        );
        let long = format!("%s = call i32 @f(ptr @\"{}\")", "é".repeat(100));
        let q = quote_text(&long);
        assert!(q.ends_with("..."));
        assert_eq!(q.chars().count(), 83);
        assert_eq!(quote_text("ret void"), "ret void");
    }
}

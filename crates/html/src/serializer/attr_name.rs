//! "An attribute's serialized name" (A.8).

use std::fmt::{self, Write};

use crate::dom_patch::AttrNamespace;

/// Writes the serialized name: the local name, prefixed `xml:`, `xlink:` or
/// `xmlns:` by namespace, except that `xmlns` in the XMLNS namespace stays `xmlns`.
pub(crate) fn write_attr_name<W: Write + ?Sized>(
    out: &mut W,
    ns: AttrNamespace,
    local: &str,
) -> fmt::Result {
    let prefix = match ns {
        AttrNamespace::None => "",
        AttrNamespace::Xml => "xml:",
        AttrNamespace::Xmlns if local == "xmlns" => "",
        AttrNamespace::Xmlns => "xmlns:",
        AttrNamespace::XLink => "xlink:",
    };
    out.write_str(prefix)?;
    out.write_str(local)
}

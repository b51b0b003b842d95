//! Frames: the page's root frame and one frame per template expansion.
//!
//! A template frame holds its title (for loop detection by ancestry), its depth and
//! its arguments as *unexpanded* nodes of the caller's tree: an argument is expanded
//! in the caller's frame the first time `{{{name}}}` asks for it, then cached
//! (MediaWiki's `PPTemplateFrame`). Named arguments are trimmed, positional ones
//! are not; a later argument of the same name replaces an earlier one
//! (`{{t|1=a|b}}` gives `1` = `b`).

use std::cell::RefCell;
use std::rc::Rc;

use foldhash::HashMap;

use crate::preprocess::title::Title;
use crate::preprocess::tree::Node;

/// An argument's source.
#[derive(Clone, Copy)]
pub(crate) struct ArgRef<'a> {
    pub(crate) nodes: &'a [Node],
    pub(crate) trim: bool,
}

/// One frame of the expansion.
pub(crate) struct Frame<'a> {
    /// The caller (`None` for the page).
    pub(crate) parent: Option<&'a Frame<'a>>,
    /// The text the frame's tree points into.
    pub(crate) src: &'a str,
    /// The template (`None` for the page).
    pub(crate) title: Option<Title>,
    /// 0 for the page, 1 for a template it calls, …
    pub(crate) depth: usize,
    pub(crate) args: HashMap<String, ArgRef<'a>>,
    pub(crate) cache: RefCell<HashMap<String, Rc<str>>>,
}

impl<'a> Frame<'a> {
    /// The page's frame.
    pub(crate) fn root(src: &'a str) -> Frame<'a> {
        Frame {
            parent: None,
            src,
            title: None,
            depth: 0,
            args: HashMap::default(),
            cache: RefCell::new(HashMap::default()),
        }
    }

    /// The same frame (title, arguments, caller) over another text: the content
    /// of an extension tag that is preprocessed in its frame.
    pub(crate) fn with_src<'b>(&'b self, src: &'b str) -> Frame<'b> {
        Frame {
            parent: self.parent,
            src,
            title: self.title.clone(),
            depth: self.depth,
            args: self.args.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            cache: RefCell::new(self.cache.borrow().clone()),
        }
    }

    /// Whether `title` is this frame's template or an ancestor's.
    pub(crate) fn is_expanding(&self, title: &Title) -> bool {
        let mut frame = Some(self);
        while let Some(f) = frame {
            if f.title.as_ref() == Some(title) {
                return true;
            }
            frame = f.parent;
        }
        false
    }
}

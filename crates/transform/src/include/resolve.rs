//! Where included text comes from: the [`Resolver`] trait and the default
//! [`DirResolver`].

use std::future::Future;
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;

/// An included text and the name loop detection knows it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The canonical name (two `src` values naming the same file give one name).
    pub name: String,
    /// The text (an HTML fragment).
    pub text: String,
}

/// Why a `src` could not be resolved; shown as error markup in the output.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Empty, absolute, with `..`, or leading outside the root.
    #[error("include path not allowed: {0}")]
    BadPath(String),
    /// No such file.
    #[error("include not found: {0}")]
    NotFound(String),
    /// The file could not be read.
    #[error("include {path} could not be read: {message}")]
    Io {
        /// The `src`.
        path: String,
        /// The error.
        message: String,
    },
    /// The file is not UTF-8.
    #[error("include {0} is not UTF-8")]
    NotUtf8(String),
}

impl ResolveError {
    /// A short code for the markup's `data-tagloom-error` attribute.
    pub fn code(&self) -> &'static str {
        match self {
            ResolveError::BadPath(_) => "bad-path",
            ResolveError::NotFound(_) => "not-found",
            ResolveError::Io { .. } => "io",
            ResolveError::NotUtf8(_) => "not-utf8",
        }
    }
}

/// What a resolver returns.
pub type ResolveFuture = Pin<Box<dyn Future<Output = Result<Resolved, ResolveError>>>>;

/// Resolves an include's `src`. Calls for one page run concurrently (phase 1).
pub trait Resolver: Send + Sync {
    /// Resolves `src`.
    fn resolve(&self, src: &str) -> ResolveFuture;
}

/// Resolves `src` as a relative path under a root directory, never outside it:
/// empty and absolute paths, `..` components, and symbolic links leading out of
/// the root are refused. Local files are read synchronously inside the future (a
/// read is quicker than handing it to a thread); a resolver for slow storage
/// would return a truly pending future.
#[derive(Clone, Debug)]
pub struct DirResolver {
    root: PathBuf,
}

impl DirResolver {
    /// A resolver under `root` (canonicalized now).
    pub fn new(root: impl AsRef<Path>) -> std::io::Result<DirResolver> {
        Ok(DirResolver {
            root: root.as_ref().canonicalize()?,
        })
    }

    /// The path `src` names under the root, or why not.
    pub fn path(&self, src: &str) -> Result<PathBuf, ResolveError> {
        let bad = || ResolveError::BadPath(src.to_owned());
        if src.is_empty() || src.contains('\0') || src.starts_with(['/', '\\']) {
            return Err(bad());
        }
        let relative = Path::new(src);
        for component in relative.components() {
            match component {
                Component::Normal(_) | Component::CurDir => {}
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                    return Err(bad());
                }
            }
        }
        let joined = self.root.join(relative);
        let real = joined.canonicalize().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ResolveError::NotFound(src.to_owned()),
            _ => ResolveError::Io {
                path: src.to_owned(),
                message: e.to_string(),
            },
        })?;
        if !real.starts_with(&self.root) {
            return Err(bad());
        }
        Ok(real)
    }

    fn read(&self, src: &str) -> Result<Resolved, ResolveError> {
        let path = self.path(src)?;
        let bytes = std::fs::read(&path).map_err(|e| ResolveError::Io {
            path: src.to_owned(),
            message: e.to_string(),
        })?;
        let text = String::from_utf8(bytes).map_err(|_| ResolveError::NotUtf8(src.to_owned()))?;
        let name = path
            .strip_prefix(&self.root)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        Ok(Resolved { name, text })
    }
}

impl Resolver for DirResolver {
    fn resolve(&self, src: &str) -> ResolveFuture {
        let result = self.read(src);
        Box::pin(async move { result })
    }
}

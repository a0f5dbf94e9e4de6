//! Errors of the CSR loader and the generator. Every error that comes from an input file names
//! the file, the key path inside it and, where the format lets us find it, the line.

use std::fmt;
use std::path::PathBuf;

/// Where in an input file something went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    /// Key path in the serde_path_to_error style: `apertures[2].base`. Empty for the whole file.
    pub key: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", self.key)?;
        }
        Ok(())
    }
}

/// The classes of bad input. Each has its own test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// The text is not valid JSON/YAML, has an unknown key, a missing key or a value of the wrong
    /// type.
    Syntax,
    /// Two registers, fields, apertures, bundles or descriptor fields share addresses or bits.
    Overlap,
    /// A field or register lies (partly) outside the register, bundle, block or word holding it.
    OutOfRange,
    /// A reset value does not fit its field.
    ResetTooWide,
    /// Two items of one scope share a name.
    DuplicateName,
    /// An array size, stride or bundle size is zero, not a power of two where one is needed, or
    /// too small for its contents.
    BadArray,
    /// A reference (block, field, view, role, profile) names nothing, or a required role is
    /// missing.
    BadReference,
    /// A value is out of its allowed set (access type, enum, width).
    BadValue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub at: Location,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

//! The library's [`inarow::Error`] as Python exceptions: `inarow.Error`, a `ValueError`, and one
//! subclass per kind, each carrying the command line's one-line message.

use inarow::Error as LibError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    inarow,
    Error,
    PyValueError,
    "What the library reports, with the command line's one-line message: a ValueError."
);
pyo3::create_exception!(
    inarow,
    SpecError,
    Error,
    "A game spec that names no game, or a board out of range."
);
pyo3::create_exception!(
    inarow,
    MoveError,
    Error,
    "A move string that cannot be played from its position, or a board that is no position \
     of the game. Attributes: text (the whole string), index (1-based index of the offending \
     move; 0 for a board), token (the move as written), reason."
);
pyo3::create_exception!(
    inarow,
    InputError,
    Error,
    "A value that is not what it must be (a number out of range, an unknown name)."
);
pyo3::create_exception!(
    inarow,
    UnsupportedError,
    Error,
    "A request that does not fit the game or another setting."
);
pyo3::create_exception!(
    inarow,
    FileError,
    Error,
    "A file that cannot be read or written, or that is damaged or made for something else."
);
pyo3::create_exception!(
    inarow,
    MemoryLimitError,
    Error,
    "The memory budget (or the machine) cannot hold what was asked (a table too large)."
);
pyo3::create_exception!(
    inarow,
    SearchError,
    Error,
    "A search stopped before it gave what was asked, or could not give it."
);
pyo3::create_exception!(
    inarow,
    InternalError,
    Error,
    "Something that should not happen whatever the input: a bug in the library."
);

/// The Python exception of a library error.
pub fn to_py(error: LibError) -> PyErr {
    let message = error.to_string();
    match error {
        LibError::Move(e) => Python::attach(|py| {
            let err = MoveError::new_err(message);
            let value = err.value(py);
            for (name, v) in [("text", e.text), ("token", e.token), ("reason", e.reason)] {
                let _ = value.setattr(name, v);
            }
            let _ = value.setattr("index", e.index);
            err
        }),
        LibError::Spec(_) => SpecError::new_err(message),
        LibError::Input(_) => InputError::new_err(message),
        LibError::Unsupported(_) => UnsupportedError::new_err(message),
        LibError::File(_) => FileError::new_err(message),
        LibError::Memory(_) => MemoryLimitError::new_err(message),
        LibError::Search(_) => SearchError::new_err(message),
        LibError::Internal(_) => InternalError::new_err(message),
        // A kind added to the library later: the base class until it has its own.
        _ => Error::new_err(message),
    }
}

/// Errors in the library's type, for the code that checks arguments.
pub fn input(message: String) -> PyErr {
    to_py(LibError::Input(message))
}

/// Converts results of the library into Python's.
pub trait IntoPy<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, LibError> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

//! The CLI's standard output. `println!` panics when a write fails, so every report goes through
//! `out!` and `outln!` (same arguments) instead, which end the run cleanly when standard output
//! cannot take it:
//!
//! - its reader is gone (a broken pipe: `xdie route topologies/mesh64.yaml | head -n 1`): quietly,
//!   with status 141, what a shell reports for a program a closed pipe ended (128 + SIGPIPE, as
//!   `yes | head -n 1` gives under `set -o pipefail`). The report was cut short, so not 0, which
//!   would pass for a whole one, nor 1 or 2, which say what the run found;
//! - any other write error (a full disk, `>/dev/full`): `error: cannot write standard output: ...`
//!   on standard error and status 2, the CLI's status for a run stopped by its surroundings (an
//!   input it cannot read, an output file it cannot write).
//!
//! The run ends where the write failed, without unwinding to `main`: the commands print their
//! reports once the work is done (outputs written, models compared), so nothing is left to finish
//! or clean up, and `xdie soak`, which prints between runs, stops instead of running on for no
//! reader.

use std::io::{self, Write};
use std::process::ExitCode;

/// `print!` to standard output, ending the run as the module says when the write fails.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), false)
    };
}

/// `println!` to standard output, ending the run as the module says when the write fails.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), true)
    };
}

/// `eprintln!` with the text made safe for a terminal (`crate::printable::lines`: control
/// characters escaped, line breaks kept), and no panic when standard error cannot be written.
/// Every message of the CLI goes through it: error messages quote input values and paths.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::err_line(format_args!($($arg)*))
    };
}

/// What `errln!` calls.
pub fn err_line(args: std::fmt::Arguments) {
    let text = crate::printable::lines(&args.to_string());
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// Status of a run whose standard output was closed by its reader (128 + SIGPIPE).
pub const BROKEN_PIPE: u8 = 141;

/// Status of a run that could not write its standard output.
pub const CANNOT_WRITE: u8 = 2;

/// What `out!` and `outln!` call.
pub fn write(args: std::fmt::Arguments, newline: bool) {
    let mut o = io::stdout().lock();
    let res = o
        .write_fmt(args)
        .and_then(|()| if newline { o.write_all(b"\n") } else { Ok(()) });
    if let Err(e) = res {
        drop(o);
        end(&e);
    }
}

/// Flush what `out!` left in the buffer (a report not ending in a newline), and return `code`;
/// `main` passes every command's status through here. Rust flushes at exit too, but ignores an
/// error there.
pub fn finish(code: ExitCode) -> ExitCode {
    if let Err(e) = io::stdout().lock().flush() {
        end(&e);
    }
    code
}

fn end(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(i32::from(BROKEN_PIPE));
    }
    // Not `eprintln!`, which panics if standard error fails too.
    let _ = writeln!(io::stderr(), "error: cannot write standard output: {e}");
    std::process::exit(i32::from(CANNOT_WRITE));
}

//! Black-box tests of the `pgnkit` binary: one test binary, one module per area.

mod util;

mod validate;

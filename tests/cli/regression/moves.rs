//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

//! One test per fixed bug (issue 14, and every bug after it), named after what it protects.
//! A new regression test goes in the module of the part of the issue it belongs to.

mod games; // games merged or lost: boundaries, tags, line ends, escape lines
mod limits; // runs that must stay bounded or exact: split names, deep --where, report memory,
// --tags columns, merged sums
mod moves; // moves misread: move numbers, loose SAN, hints, stray tokens
mod output; // output that hurts the user: convert, fatal errors, the no-game warning
mod positions; // positions misjudged: FEN setups, castling rights, variants

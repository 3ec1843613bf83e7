//! Bounded under attack (issue 15): memory, time, files, terminals and disks. Each test
//! asserts the work done or the bytes written, never a wall-clock time.

mod files; // symlink loops, output paths, modes, special files, closed or full streams
mod memory; // memory bounded by a chunk's bytes, per-game memory, linear tag checks
mod terminal; // control characters escaped, archives recognised by magic bytes

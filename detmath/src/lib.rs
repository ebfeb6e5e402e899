//! The same floating-point bits on every machine.
//!
//! glibc picks its implementation of `sin`, `exp`, `pow`... by the CPU it runs on (FMA/AVX2
//! code paths or not), and the results differ in the last bit for some inputs. A Lua bot can
//! turn one such bit into another move, and the arena's ratings print them: a replay recorded
//! on one machine would then fail `arena replay --verify` on another.
//!
//! This crate defines the C math library's symbols (`sin`, `exp`, `pow`, ...) in the program
//! itself, computed by the `libm` crate (musl's algorithms in plain Rust, with no CPU
//! dispatch). A definition in the executable takes precedence over the shared `libm.so`, so
//! every caller in the process gets these: the vendored Lua's math library and `^` operator,
//! Rust's `f64::sin`/`exp`/`ln`/`powf` (which call the same symbols), and crates such as
//! `skillratings`.
//!
//! Functions whose IEEE result is exact (`sqrt`, `fabs`, `floor`, `ceil`, `fmod`, `frexp`,
//! `ldexp`, conversions) are the same bits everywhere already and are left to the C library.
//!
//! A program gets these definitions only if the linker keeps this crate's object: `Sandbox::new`
//! calls [`active`] (which refers to every one of them) and refuses to start when it is false, and
//! `sandbox/tests/it/math.rs` pins the bits of a few hundred results, which the C library's fast
//! paths would not give.

use std::hint::black_box;

macro_rules! c_math {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            #[doc = concat!("`", stringify!($name), "` as `libm::", stringify!($name), "` computes it.")]
            #[no_mangle]
            pub extern "C" fn $name($($arg: $ty),*) -> $ret {
                libm::$name($($arg),*)
            }
        )*

        /// Keeps every definition of this crate in the program being linked.
        ///
        /// The linker takes an object file out of a library only when something already
        /// linked refers to it; the C code that calls `sin` (Lua's math library) comes later on
        /// the command line than this crate, so without this reference it would bind to the C
        /// library's `sin` instead. [`active`] calls it.
        fn ensure_linked() -> usize {
            let mut sum = 0usize;
            $( sum = sum.wrapping_add(black_box($name as *const () as usize)); )*
            sum
        }
    };
}

c_math! {
    sin(x: f64) -> f64;
    cos(x: f64) -> f64;
    tan(x: f64) -> f64;
    asin(x: f64) -> f64;
    acos(x: f64) -> f64;
    atan(x: f64) -> f64;
    atan2(y: f64, x: f64) -> f64;
    sinh(x: f64) -> f64;
    cosh(x: f64) -> f64;
    tanh(x: f64) -> f64;
    asinh(x: f64) -> f64;
    acosh(x: f64) -> f64;
    atanh(x: f64) -> f64;
    exp(x: f64) -> f64;
    exp2(x: f64) -> f64;
    exp10(x: f64) -> f64;
    expm1(x: f64) -> f64;
    log(x: f64) -> f64;
    log2(x: f64) -> f64;
    log10(x: f64) -> f64;
    log1p(x: f64) -> f64;
    pow(x: f64, y: f64) -> f64;
    cbrt(x: f64) -> f64;
    hypot(x: f64, y: f64) -> f64;
    erf(x: f64) -> f64;
    erfc(x: f64) -> f64;
    tgamma(x: f64) -> f64;
    sinf(x: f32) -> f32;
    cosf(x: f32) -> f32;
    tanf(x: f32) -> f32;
    expf(x: f32) -> f32;
    exp2f(x: f32) -> f32;
    logf(x: f32) -> f32;
    log2f(x: f32) -> f32;
    log10f(x: f32) -> f32;
    powf(x: f32, y: f32) -> f32;
}

/// True when `f64::sin` etc. in this program are this crate's functions (not the C
/// library's): they agree with `libm` on inputs where glibc's CPU-specific code paths give
/// other bits than musl's algorithms.
pub fn active() -> bool {
    ensure_linked();
    PROBES.iter().all(|&x| {
        let std = [x.sin(), x.exp(), x.ln(), x.powf(0.37), x.cos(), x.tan()];
        let ours = [libm::sin(x), libm::exp(x), libm::log(x), libm::pow(x, 0.37), libm::cos(x), libm::tan(x)];
        std.iter().zip(ours).all(|(a, b)| a.to_bits() == b.to_bits())
    })
}

const PROBES: &[f64] = &[0.5, 1.5, 2.75, 3.0, 7.25, 10.5, 42.0, 99.5];

//! The compact answers that carry streamed results to the package's JavaScript layer
//! (`node/lib/`), which builds each string from slices of the caller's own original (V8 shares
//! their memory) instead of receiving a copy of the file per call.
//!
//! An answer is an array `[numbers, texts, ...extra]`: `numbers` an `Int32Array` holding a few
//! fixed slots and then the pieces (a range of the original as its UTF-16 start and end, both
//! at least 0; new text as `-1 - length`, its characters taken in turn from `texts`, every new
//! text of the answer joined into one string). So an answer costs a handful of napi calls
//! whatever its number of pieces. `node/lib/rope.js` decodes it.

use hunkloom::TextOffset;
use hunkloom::text::Piece;
use napi::bindgen_prelude::{Array, ToNapiValue};
use napi::{Env, sys};

/// An answer being built (owned, so it can cross from the thread pool).
#[derive(Clone, Debug, Default)]
pub struct Wire {
    numbers: Vec<i32>,
    texts: String,
}

/// A UTF-16 offset or length as the wire carries it (V8 strings are shorter than 2^30).
fn int(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

impl Wire {
    /// Appends a fixed slot.
    pub fn number(&mut self, n: usize) {
        self.numbers.push(int(n));
    }

    /// Appends `values` with their count before them.
    pub fn counted(&mut self, values: impl ExactSizeIterator<Item = usize>) {
        self.number(values.len());
        self.numbers.extend(values.map(int));
    }

    /// Appends a piece.
    pub fn piece(&mut self, piece: Piece<'_>) {
        match piece {
            Piece::Original { start, end } => {
                self.numbers.push(int(start.utf16));
                self.numbers.push(int(end.utf16));
            }
            Piece::New(text) => {
                self.numbers.push(-1 - int(TextOffset::of(&text).utf16));
                self.texts.push_str(&text);
            }
        }
    }

    /// Appends every piece.
    pub fn pieces<'a>(&mut self, pieces: impl IntoIterator<Item = Piece<'a>>) {
        for piece in pieces {
            self.piece(piece);
        }
    }

    /// Appends another wire's numbers and texts.
    pub fn append(&mut self, other: Wire) {
        self.numbers.extend(other.numbers);
        self.texts.push_str(&other.texts);
    }

    /// The answer `[numbers, texts, ...extra]`.
    pub fn into_array<'e>(
        self,
        env: &'e Env,
        extra: impl FnOnce(&mut Array<'e>) -> napi::Result<()>,
    ) -> napi::Result<Array<'e>> {
        let mut array = env.create_array(2)?;
        array.set(0, Numbers(self.numbers))?;
        array.set(1, self.texts.as_str())?;
        extra(&mut array)?;
        Ok(array)
    }
}

/// An `Int32Array` copied into a V8-owned buffer (an external buffer would need a finalizer
/// per answer).
struct Numbers(Vec<i32>);

impl ToNapiValue for Numbers {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        let bytes = std::mem::size_of_val(val.0.as_slice());
        let mut data = std::ptr::null_mut();
        let mut buffer = std::ptr::null_mut();
        let mut typed = std::ptr::null_mut();
        // SAFETY: `env` is the caller's valid environment; the buffer V8 allocates has `bytes`
        // bytes, exactly what is copied into it, and the typed array views all of it.
        unsafe {
            napi::check_status!(sys::napi_create_arraybuffer(
                env,
                bytes,
                &mut data,
                &mut buffer
            ))?;
            if bytes > 0 {
                std::ptr::copy_nonoverlapping(
                    val.0.as_ptr().cast::<u8>(),
                    data.cast::<u8>(),
                    bytes,
                );
            }
            napi::check_status!(sys::napi_create_typedarray(
                env,
                sys::TypedarrayType::int32_array,
                val.0.len(),
                buffer,
                0,
                &mut typed,
            ))?;
        }
        Ok(typed)
    }
}

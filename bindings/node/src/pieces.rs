//! The compact answers that carry streamed results to the package's JavaScript layer
//! (`node/lib/`), which builds each string from slices of the caller's own original (V8 shares
//! their memory) instead of receiving a copy of the file per call.
//!
//! An answer's numbers are `[n, ...n values]`: a few fixed slots, then the pieces (a range of
//! the original as its UTF-16 start and end, both at least 0; new text as `-1 - length`, its
//! units taken in turn from `texts`, every new text of the answer joined into one string). The
//! numbers go into a scratch `Int32Array` the caller passes when they fit, so a typical push
//! costs one napi string and no allocation on the JavaScript heap; otherwise (and from the
//! thread pool) they travel in a new `Int32Array`. `node/lib/rope.js` reads answers.

use hunkloom::TextOffset;
use hunkloom::text::Piece;
use napi::bindgen_prelude::{FromNapiValue, Null, ToNapiValue, TypeName};
use napi::{Env, JsValue, Unknown, ValueType, sys};

use crate::errors;
use crate::types::BlockReport;

/// An answer being built (owned, so it can cross from the thread pool).
#[derive(Clone, Debug)]
pub struct Wire {
    /// `numbers[0]` is filled in by [`Wire::reply`].
    numbers: Vec<i32>,
    texts: String,
}

impl Default for Wire {
    fn default() -> Self {
        Wire {
            numbers: vec![0],
            texts: String::new(),
        }
    }
}

/// A UTF-16 offset or length as the wire carries it (V8 strings are shorter than 2^30).
fn int(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// What an answer carries besides its numbers and texts.
pub enum Extra {
    /// Nothing (`null`).
    Nothing,
    /// The error of a partial call.
    Error(hunkloom::Error),
    /// Block reports.
    Reports(Vec<BlockReport>),
    /// Roo's `DiffResult` without its `content` (which the pieces carry).
    Roo(crate::types::DiffResult),
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

    /// Appends another wire's values (not its count) and texts.
    pub fn append(&mut self, other: Wire) {
        self.numbers.extend_from_slice(&other.numbers[1..]);
        self.texts.push_str(&other.texts);
    }

    /// The reply: the numbers go into `scratch` when one is given and they fit (else
    /// `scratch[0]` is set to -1 and they travel in the reply).
    pub fn reply(mut self, scratch: Option<&mut [i32]>, extra: Extra) -> Reply {
        self.numbers[0] = int(self.numbers.len() - 1);
        let numbers = match scratch {
            Some(s) if self.numbers.len() <= s.len() => {
                s[..self.numbers.len()].copy_from_slice(&self.numbers);
                if matches!(extra, Extra::Nothing) {
                    return Reply::Texts(self.texts);
                }
                None
            }
            Some(s) => {
                if let Some(first) = s.first_mut() {
                    *first = -1;
                }
                Some(self.numbers)
            }
            None => Some(self.numbers),
        };
        Reply::Full {
            numbers,
            texts: self.texts,
            extra,
        }
    }
}

/// What JavaScript receives: the texts alone (the numbers are in the scratch array), or
/// `[numbers | null, texts, extra]`.
pub enum Reply {
    /// The numbers are in the scratch array and there is nothing else.
    Texts(String),
    /// Everything in the reply.
    Full {
        /// The numbers, or `None` when they are in the scratch array.
        numbers: Option<Vec<i32>>,
        /// The new texts, joined.
        texts: String,
        /// The extra value.
        extra: Extra,
    },
}

impl TypeName for Reply {
    fn type_name() -> &'static str {
        "string | Array"
    }

    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

/// The caller's scratch `Int32Array`, borrowed for the length of a synchronous call (JavaScript
/// cannot touch it while the call runs).
pub fn scratch<'a>(env: &Env, value: &Unknown<'a>) -> napi::Result<&'a mut [i32]> {
    // SAFETY: `value` is a live value of `env`; napi checks that it is an `Int32Array`, and the
    // slice is used only before this call returns to JavaScript.
    unsafe { <&mut [i32] as FromNapiValue>::from_napi_value(env.raw(), value.raw()) }
}

impl ToNapiValue for Reply {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
        let (numbers, texts, extra) = match val {
            // SAFETY: `env` is the caller's valid environment (this function's contract).
            Reply::Texts(texts) => return unsafe { String::to_napi_value(env, texts) },
            Reply::Full {
                numbers,
                texts,
                extra,
            } => (numbers, texts, extra),
        };
        let js = Env::from_raw(env);
        let mut array = js.create_array(3)?;
        match numbers {
            Some(numbers) => array.set(0, Numbers(numbers))?,
            None => array.set(0, Null)?,
        }
        array.set(1, texts)?;
        match extra {
            Extra::Nothing => array.set(2, Null)?,
            Extra::Error(e) => array.set(2, errors::js_error(&js, &e))?,
            Extra::Reports(reports) => array.set(2, reports)?,
            Extra::Roo(result) => array.set(2, result)?,
        }
        // SAFETY: the array belongs to `env`.
        unsafe { ToNapiValue::to_napi_value(env, array) }
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

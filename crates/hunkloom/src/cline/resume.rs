//! [`ResumeCache`]: Cline's calling pattern made cheap without changing its results.
//!
//! While a diff streams, Cline calls `constructNewFileContent(prefix, original, false)` on every
//! growing prefix and finally `constructNewFileContent(diff, original, true)`. Called statelessly,
//! each call re-parses the whole prefix, so a stream costs O(prefixes × diff). A
//! [`StreamingApplier`](crate::StreamingApplier) in the same dialect (the Cline stream it
//! runs) already equals the stateless call after every prefix
//! (its preview, error and match indices, and its `finish` equals the final call; the property
//! and conformance tests check both), so when a call's diff extends a previous call's diff for
//! the same original and version, the cache pushes only the new suffix into the stream it kept
//! from that call. Anything else — another original, another version, a diff that does not extend
//! a kept one — is computed from scratch, exactly as [`construct_new_file_content`] does.
//!
//! # Bounds
//!
//! At most [`capacity`](ResumeCache::capacity) streams are kept (least recently used evicted
//! first; [`ResumeCache::DEFAULT_CAPACITY`] by default, 0 disables the cache). Each kept stream
//! holds a copy of its original, its preview (about the size of the new content), the diff so far
//! and the stream's line index of the original. A final call consumes its stream, so Cline's
//! pattern leaves nothing behind; an abandoned stream stays until evicted.
//!
//! # Cost per call
//!
//! A hit costs the pushed suffix plus one comparison of the original and of the kept diff
//! (`memcmp`), one copy of the preview for the owned result and, in v1 once blocks have matched,
//! one counting pass over the original up to the last match. All of these are linear in the
//! file at memory speed; the re-parse and re-match of the prefix, which a miss pays, is gone.

use std::sync::{Mutex, MutexGuard, TryLockError};

use super::{ClineStream, Version, construct_new_file_content};
use crate::error::Result;
use crate::policy::PreviewForm;
use crate::text::{OriginalText, Position};

/// What `constructNewFileContent` resolves to, owned (so it can outlive the call's arguments and
/// cross threads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResumedContent {
    /// The new file content (for a partial call, the content so far).
    pub new_content: String,
    /// Cline's `matchIndices` in every unit (`utf16` is Cline's): completion order for partial
    /// calls, sorted for final ones, always empty in v2.
    pub match_indices: Vec<Position>,
}

/// How often a [`ResumeCache`] resumed a kept stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Calls that resumed a kept stream.
    pub hits: u64,
    /// Calls computed from scratch.
    pub misses: u64,
}

/// One kept stream: the diff pushed so far into a stream over its original.
#[derive(Debug)]
struct Entry {
    version: Version,
    diff: String,
    original: OriginalText,
    stream: ClineStream,
}

impl Entry {
    /// Whether a call with these arguments continues this stream. Cheap checks first: the
    /// lengths, then the diff prefix, then the original.
    fn continues(&self, diff: &str, original: &str, version: Version) -> bool {
        self.version == version
            && diff.len() >= self.diff.len()
            && self.original.as_str().len() == original.len()
            && diff.as_bytes()[..self.diff.len()] == *self.diff.as_bytes()
            && self.original.as_str() == original
    }

    /// The stream's state as Cline's partial call reports it.
    fn partial(&self) -> Result<ResumedContent> {
        if let Some(e) = self.stream.error() {
            return Err(e.clone());
        }
        Ok(ResumedContent {
            new_content: self.stream.preview(&self.original).to_owned(),
            match_indices: self.stream.match_indices(&self.original),
        })
    }
}

/// Resumes `constructNewFileContent` calls whose diff extends a previous call's diff (see the
/// module documentation). Every result equals
/// [`construct_new_file_content`]'s for the same arguments.
///
/// ```
/// use hunkloom::cline::{ResumeCache, Version};
///
/// let original = "a\nb\nc\n";
/// let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";
/// let mut cache = ResumeCache::new();
/// for end in 1..diff.len() {
///     let _partial = cache.call(&diff[..end], original, false, Version::V1);
/// }
/// let done = cache.call(diff, original, true, Version::V1)?;
/// assert_eq!(done.new_content, "a\nB\nc\n");
/// assert_eq!(done.match_indices[0].utf16, 2);
/// assert_eq!(cache.stats().misses, 1); // only the first prefix was computed from scratch
/// assert_eq!(cache.len(), 0); // the final call consumed the stream
/// # Ok::<(), hunkloom::Error>(())
/// ```
#[derive(Debug)]
pub struct ResumeCache {
    /// Least recently used first.
    entries: Vec<Entry>,
    capacity: usize,
    stats: CacheStats,
}

impl Default for ResumeCache {
    fn default() -> Self {
        Self::new()
    }
}

impl ResumeCache {
    /// How many streams a new cache keeps: enough for a few files edited in turn.
    pub const DEFAULT_CAPACITY: usize = 4;

    /// An empty cache with [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY).
    pub const fn new() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }

    /// An empty cache that keeps at most `capacity` streams (0: never keeps one).
    pub const fn with_capacity(capacity: usize) -> Self {
        ResumeCache {
            entries: Vec::new(),
            capacity,
            stats: CacheStats { hits: 0, misses: 0 },
        }
    }

    /// The most streams kept at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Changes the capacity, evicting the least recently used streams beyond it (0 empties the
    /// cache and disables it).
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        self.evict();
    }

    /// How many streams are kept now.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no stream is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops every kept stream (the statistics stay).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Hits and misses so far.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// Cline's `constructNewFileContent(diff, original, is_final, version)`, resumed from a kept
    /// stream when `diff` extends one for the same `original` and `version`.
    pub fn call(
        &mut self,
        diff: &str,
        original: &str,
        is_final: bool,
        version: Version,
    ) -> Result<ResumedContent> {
        let Some(mut entry) = self.take(diff, original, version) else {
            self.stats.misses += 1;
            if is_final || self.capacity == 0 {
                return stateless(diff, original, is_final, version);
            }
            let original = OriginalText::new(original);
            let mut stream = ClineStream::new(version, original.as_str().len(), PreviewForm::Text);
            stream.push(&original, diff);
            let entry = Entry {
                version,
                diff: diff.to_owned(),
                original,
                stream,
            };
            let result = entry.partial();
            self.keep(entry);
            return result;
        };
        self.stats.hits += 1;
        let suffix = &diff[entry.diff.len()..];
        if !suffix.is_empty() {
            entry.stream.push(&entry.original, suffix);
        }
        if is_final {
            let outcome = entry.stream.finish(&entry.original)?;
            return Ok(ResumedContent {
                new_content: outcome.new_content,
                match_indices: outcome.match_indices,
            });
        }
        entry.diff.push_str(suffix);
        let result = entry.partial();
        self.keep(entry);
        result
    }

    /// Removes and returns the most recently used stream that this call continues.
    fn take(&mut self, diff: &str, original: &str, version: Version) -> Option<Entry> {
        let at = self
            .entries
            .iter()
            .rposition(|e| e.continues(diff, original, version))?;
        Some(self.entries.remove(at))
    }

    /// Keeps `entry` as the most recently used stream.
    fn keep(&mut self, entry: Entry) {
        if self.capacity > 0 {
            self.entries.push(entry);
            self.evict();
        }
    }

    fn evict(&mut self) {
        let excess = self.entries.len().saturating_sub(self.capacity);
        self.entries.drain(..excess);
    }
}

/// The process-wide cache behind [`construct_new_file_content_resumed`].
static SHARED: Mutex<ResumeCache> = Mutex::new(ResumeCache::new());

/// Cline's `constructNewFileContent` through one process-wide [`ResumeCache`], so a caller that
/// calls it per growing prefix (Cline's pattern) resumes instead of starting over, from any
/// thread. Results equal [`construct_new_file_content`]'s.
///
/// A call never waits for the cache: if another thread holds it, this call is computed from
/// scratch (the cache only saves work), so concurrent callers never queue behind each other.
///
/// ```
/// use hunkloom::cline::{Version, construct_new_file_content_resumed};
///
/// let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";
/// for end in 1..diff.len() {
///     let _ = construct_new_file_content_resumed(&diff[..end], "a\nb\n", false, Version::V1);
/// }
/// let done = construct_new_file_content_resumed(diff, "a\nb\n", true, Version::V1)?;
/// assert_eq!(done.new_content, "a\nB\n");
/// # Ok::<(), hunkloom::Error>(())
/// ```
pub fn construct_new_file_content_resumed(
    diff: &str,
    original: &str,
    is_final: bool,
    version: Version,
) -> Result<ResumedContent> {
    match SHARED.try_lock() {
        Ok(mut cache) => cache.call(diff, original, is_final, version),
        Err(TryLockError::Poisoned(_)) => {
            shared_resume_cache().call(diff, original, is_final, version)
        }
        Err(TryLockError::WouldBlock) => stateless(diff, original, is_final, version),
    }
}

/// The process-wide cache, waiting for it (to read its statistics or set its capacity). A cache
/// poisoned by a panic mid-call may hold a half-updated stream, so it is emptied first.
pub fn shared_resume_cache() -> MutexGuard<'static, ResumeCache> {
    SHARED.lock().unwrap_or_else(|poisoned| {
        let mut cache = poisoned.into_inner();
        cache.clear();
        SHARED.clear_poison();
        cache
    })
}

fn stateless(
    diff: &str,
    original: &str,
    is_final: bool,
    version: Version,
) -> Result<ResumedContent> {
    let result = construct_new_file_content(diff, original, is_final, version)?;
    Ok(ResumedContent {
        match_indices: result.match_indices(),
        new_content: result.new_content,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORIGINAL: &str = "a\nb\nc\n";
    const DIFF: &str = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";

    fn fresh(
        diff: &str,
        original: &str,
        is_final: bool,
        version: Version,
    ) -> Result<ResumedContent> {
        stateless(diff, original, is_final, version)
    }

    #[test]
    fn a_growing_prefix_is_resumed_and_the_final_call_consumes_it() {
        let mut cache = ResumeCache::new();
        for end in 1..=DIFF.len() {
            let got = cache.call(&DIFF[..end], ORIGINAL, false, Version::V1);
            assert_eq!(
                got,
                fresh(&DIFF[..end], ORIGINAL, false, Version::V1),
                "{end}"
            );
            assert_eq!(cache.len(), 1);
        }
        let done = cache.call(DIFF, ORIGINAL, true, Version::V1);
        assert_eq!(done, fresh(DIFF, ORIGINAL, true, Version::V1));
        assert_eq!(
            cache.stats(),
            CacheStats {
                hits: DIFF.len() as u64,
                misses: 1
            }
        );
        assert!(cache.is_empty());
    }

    #[test]
    fn anything_but_an_extension_is_computed_from_scratch() {
        let mut cache = ResumeCache::new();
        let half = &DIFF[..20];
        cache.call(half, ORIGINAL, false, Version::V1).ok();
        // Another original, another version, a diff that diverges, a shorter diff.
        let cases: [(&str, &str, Version); 4] = [
            (DIFF, "a\nb\nc\nd\n", Version::V1),
            (DIFF, ORIGINAL, Version::V2),
            ("------- SEARCH\nc\n=======\nC\n", ORIGINAL, Version::V1),
            (&DIFF[..10], ORIGINAL, Version::V1),
        ];
        for (i, (diff, original, version)) in cases.into_iter().enumerate() {
            let got = cache.call(diff, original, false, version);
            assert_eq!(got, fresh(diff, original, false, version), "case {i}");
            assert_eq!(cache.stats().hits, 0, "case {i}");
        }
        assert_eq!(cache.len(), ResumeCache::DEFAULT_CAPACITY);
        // The first stream was evicted by the four others.
        cache.call(DIFF, ORIGINAL, false, Version::V1).ok();
        assert_eq!(cache.stats().hits, 1, "the shorter prefix was resumed");
    }

    #[test]
    fn the_cache_never_exceeds_its_capacity_and_zero_disables_it() {
        let mut cache = ResumeCache::with_capacity(2);
        for i in 0..10 {
            let original = format!("{i}\nb\n");
            cache.call(&DIFF[..30], &original, false, Version::V1).ok();
            assert!(cache.len() <= 2);
        }
        cache.set_capacity(1);
        assert_eq!(cache.len(), 1);
        cache.set_capacity(0);
        assert!(cache.is_empty());
        for end in 1..DIFF.len() {
            cache.call(&DIFF[..end], ORIGINAL, false, Version::V1).ok();
        }
        assert!(cache.is_empty());
        assert_eq!(cache.stats().hits, 0);
    }

    #[test]
    fn interleaved_streams_each_resume_their_own_state() {
        let other = "x\nb\ny\n";
        let mut cache = ResumeCache::new();
        for end in 1..=DIFF.len() {
            for original in [ORIGINAL, other] {
                let got = cache.call(&DIFF[..end], original, false, Version::V2);
                assert_eq!(got, fresh(&DIFF[..end], original, false, Version::V2));
            }
        }
        assert_eq!(cache.stats().misses, 2);
    }

    #[test]
    fn errors_are_kept_like_the_stateless_call_gives_them() {
        let diff = "------- SEARCH\nzzz\n=======\nq\n+++++++ REPLACE\n";
        let mut cache = ResumeCache::new();
        for end in 1..=diff.len() {
            let got = cache.call(&diff[..end], ORIGINAL, false, Version::V1);
            assert_eq!(got, fresh(&diff[..end], ORIGINAL, false, Version::V1));
        }
        let done = cache.call(diff, ORIGINAL, true, Version::V1);
        assert_eq!(
            done.as_ref().err().map(|e| e.code()),
            Some("search_not_found")
        );
        assert_eq!(done, fresh(diff, ORIGINAL, true, Version::V1));
    }

    /// Every vector, replayed the way Cline calls it: growing prefixes (cut at seeded random
    /// character boundaries) and then the vector's own call, all through one cache. Every
    /// result must equal the stateless call, and the vector's call must equal the recorded
    /// Cline result.
    #[test]
    fn every_vector_replayed_as_growing_prefixes_equals_the_stateless_call() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
        let mut cache = ResumeCache::new();
        let mut checked = 0;
        for corpus in [
            "cline-unit",
            "cline-diff-differential",
            "cline-diff-streaming-exhaustive",
        ] {
            let text =
                std::fs::read_to_string(dir.join(format!("{corpus}.jsonl"))).expect("vector file");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let v: serde_json::Value = serde_json::from_str(line).expect("json");
                let s = |k: &str| v[k].as_str().expect(k).to_owned();
                let (id, diff, original) = (s("id"), s("diff"), s("original"));
                let version: Version = s("version").parse().expect("version");
                let is_final = v["is_final"].as_bool().expect("is_final");
                let mut rng = id.len() as u64 ^ 0x5EED;
                let mut end = 0;
                while end < diff.len() {
                    rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    end = (end + 1 + (rng >> 60) as usize).min(diff.len());
                    while !diff.is_char_boundary(end) {
                        end += 1;
                    }
                    let prefix = &diff[..end];
                    let got = cache.call(prefix, &original, false, version);
                    assert_eq!(
                        got,
                        fresh(prefix, &original, false, version),
                        "{corpus} {id} prefix {prefix:?}"
                    );
                    checked += 1;
                }
                let got = cache.call(&diff, &original, is_final, version);
                match (&got, v["expect"]["error"].as_str()) {
                    (Err(e), Some(want)) => assert_eq!(e.message(), want, "{corpus} {id}"),
                    (Ok(r), None) => {
                        let want_content = v["expect"]["new_content"].as_str();
                        assert_eq!(Some(r.new_content.as_str()), want_content, "{corpus} {id}");
                        let want_indices: Vec<u64> = v["expect"]["match_indices"]
                            .as_array()
                            .expect("match_indices")
                            .iter()
                            .map(|x| x.as_u64().expect("index"))
                            .collect();
                        let got_indices: Vec<u64> =
                            r.match_indices.iter().map(|p| p.utf16 as u64).collect();
                        assert_eq!(got_indices, want_indices, "{corpus} {id}");
                    }
                    (got, want) => panic!("{corpus} {id}: want {want:?}, got {got:?}"),
                }
                assert!(cache.len() <= ResumeCache::DEFAULT_CAPACITY);
            }
        }
        assert!(checked > 20_000, "only {checked} prefixes checked");
        assert!(cache.stats().hits > 20_000, "{:?}", cache.stats());
    }
}

//! A word-vector store read from word2vec binary, word2vec text and GloVe text files, as gensim
//! 4.4's `KeyedVectors.load_word2vec_format` reads them.
//!
//! What gensim does and this store does the same way:
//! - word2vec files open with a header `VOCAB DIM`; a `limit` reads only the first words;
//! - binary entries are the word's UTF-8 bytes up to a space, then `DIM` little-endian `f32`;
//!   line breaks before a word are dropped (some writers put one after each vector);
//! - text lines are split on single spaces after trailing white space is removed; numbers are
//!   read as Python floats and rounded to `f32`;
//! - GloVe files (no header) take their size from the first line;
//! - a word seen twice keeps its first vector;
//! - a file that ends before the header's count is an error ("unexpected end of input").
//!
//! One difference: a UTF-8 byte-order mark at the start of a file is skipped (gensim would make
//! it part of the first word).
//!
//! Where gensim would crash on a malformed line (a vector of the wrong length, a word that is not
//! UTF-8), this store returns a [`VectorError`] naming the file and the line or byte offset.
//! It also refuses what gensim would read without a word but which makes every distance
//! meaningless: a file with no vector at all (every WMD would be `inf`) and a component that
//! is NaN or infinite, in the file or after rounding to `f32` (every WMD touching that word
//! would be NaN).
//! Memory: one `f32` matrix of exactly the words kept, reserved after checking the size against
//! [`hauser_core::limits`] (and, for a binary file, against what the file can hold), plus one
//! hash-map entry per word.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use hauser_core::limits::{self, LimitError};
use thiserror::Error;

/// The UTF-8 byte-order mark, ignored at the start of a file (gensim would keep it in the first
/// word, making that word unreachable).
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest word a binary file may hold, in bytes.
const MAX_WORD_BYTES: u64 = 1 << 16;

/// The layout of a vector file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorFormat {
    /// word2vec binary (`binary=True` in gensim), e.g. GoogleNews-vectors-negative300.bin.
    Word2VecBinary,
    /// word2vec text: a `VOCAB DIM` header, then `word v1 ... vDIM` per line.
    Word2VecText,
    /// GloVe text: `word v1 ... vDIM` per line, no header (gensim's `no_header=True`).
    GloveText,
}

/// Why a vector file could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum VectorError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not in the expected format.
    #[error("{}: {location}: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// `line N` (text formats) or `byte N` (binary).
        location: String,
        /// What is wrong.
        message: String,
    },
    /// The vectors need more memory than the limit.
    #[error("{}: {source}", path.display())]
    Limit {
        /// The file.
        path: PathBuf,
        /// The refused size.
        source: LimitError,
    },
}

/// Word vectors: one `f32` row per word, in file order.
#[derive(Debug, Clone, Default)]
pub struct WordVectors {
    dim: usize,
    // The words live once, as the map's keys: a second list would cost a GoogleNews-sized file
    // (3M words) another ~170 MB.
    index: HashMap<Box<str>, u32>,
    data: Vec<f32>,
}

impl WordVectors {
    /// Builds a store from words and their vectors (all of length `dim`); a repeated word keeps
    /// its first vector, as when reading a file.
    ///
    /// # Panics
    /// When a vector's length is not `dim` (a programming error, not a file error).
    pub fn from_pairs<'a>(
        dim: usize,
        pairs: impl IntoIterator<Item = (&'a str, &'a [f32])>,
    ) -> Self {
        let mut v = Self {
            dim,
            ..Self::default()
        };
        for (word, vector) in pairs {
            assert_eq!(vector.len(), dim, "vector of {word:?}");
            v.push(word, vector);
        }
        v
    }

    /// Reads a vector file. `format: None` guesses it from the first line: two integers are a
    /// word2vec header, binary when the bytes after it are not text (see [`detect_format`]).
    /// `limit` keeps only the first words (gensim's `limit`).
    ///
    /// # Errors
    /// [`VectorError`] naming the file and where it is wrong.
    pub fn load(
        path: &Path,
        format: Option<VectorFormat>,
        limit: Option<usize>,
    ) -> Result<Self, VectorError> {
        let io = |source| VectorError::Io {
            path: path.to_path_buf(),
            source,
        };
        let format = match format {
            Some(f) => f,
            None => {
                detect_format(&mut BufReader::new(File::open(path).map_err(io)?)).map_err(io)?
            }
        };
        let file = File::open(path).map_err(io)?;
        let size = file.metadata().ok().map(|m| m.len());
        Self::from_reader(
            BufReader::with_capacity(1 << 20, file),
            path,
            format,
            limit,
            size,
        )
    }

    /// Reads vectors from `reader` (`path` names it in errors; `size`, when known, bounds the
    /// memory reserved for a binary file's header count).
    ///
    /// # Errors
    /// As [`WordVectors::load`]; a GloVe file is read in one pass, so its rows are not reserved
    /// up front.
    pub fn from_reader<R: BufRead>(
        mut reader: R,
        path: &Path,
        format: VectorFormat,
        limit: Option<usize>,
        size: Option<u64>,
    ) -> Result<Self, VectorError> {
        let mut r = Reader {
            path,
            line: 0,
            offset: 0,
        };
        r.skip_bom(&mut reader)?;
        let mut v = Self::default();
        let (mut count, dim) = match format {
            VectorFormat::GloveText => (usize::MAX, 0),
            _ => r.header(&mut reader)?,
        };
        if let Some(limit) = limit {
            count = count.min(limit);
        }
        v.dim = dim;
        if format != VectorFormat::GloveText {
            // A binary entry takes at least DIM * 4 bytes and a space; a text one 2 * DIM bytes.
            let per_entry = match format {
                VectorFormat::Word2VecBinary => dim.saturating_mul(4).saturating_add(1),
                _ => dim.saturating_mul(2).max(1),
            } as u64;
            let fits = size.map_or(u64::MAX, |s| s / per_entry.max(1));
            let rows = (count as u64).min(fits);
            let floats = rows.saturating_mul(dim as u64);
            let what = format!("{rows} word vectors of {dim} dimensions");
            let limit_err = |source| VectorError::Limit {
                path: path.to_path_buf(),
                source,
            };
            limits::try_reserve(
                &mut v.data,
                &what,
                usize::try_from(floats).unwrap_or(usize::MAX),
            )
            .map_err(limit_err)?;
            // The map's table: a key (16 bytes) and an id per word, checked the same way.
            let table = rows.saturating_mul(24);
            limits::check_memory(&what, Some(table)).map_err(limit_err)?;
            v.index
                .try_reserve(usize::try_from(rows).unwrap_or(usize::MAX))
                .map_err(|e| {
                    limit_err(LimitError::Reserve {
                        what: what.clone(),
                        needed: table,
                        reason: e.to_string(),
                    })
                })?;
        }
        if format == VectorFormat::Word2VecBinary && count > 0 {
            // One vector must fit in the file before its buffer is allocated.
            let need = (dim as u64).saturating_mul(4);
            if size.is_some_and(|s| need > s) {
                return Err(r.bad(
                    "line 1".into(),
                    format!(
                        "vectors of {dim} dimensions need {need} bytes each, more than the whole file"
                    ),
                ));
            }
        }
        match format {
            VectorFormat::Word2VecBinary => r.binary(&mut reader, &mut v, count)?,
            _ => r.text(
                &mut reader,
                &mut v,
                count,
                format == VectorFormat::GloveText,
            )?,
        }
        if v.is_empty() {
            let message = match limit {
                Some(0) => "a limit of 0 words keeps no vector".to_string(),
                _ if format == VectorFormat::GloveText => {
                    "no word vectors: the file is empty".to_string()
                }
                _ => format!("no word vectors: the header announces {count} words"),
            };
            return Err(r.bad(format!("line {}", r.line.max(1)), message));
        }
        v.data.shrink_to_fit();
        Ok(v)
    }

    fn push(&mut self, word: &str, vector: &[f32]) {
        if self.index.contains_key(word) {
            return;
        }
        let id = u32::try_from(self.index.len()).unwrap_or(u32::MAX);
        self.index.insert(word.into(), id);
        self.data.extend_from_slice(vector);
    }

    /// The number of dimensions.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the store has no word.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Whether `word` has a vector (exact match, as gensim's `word in kv`).
    pub fn contains(&self, word: &str) -> bool {
        self.index.contains_key(word)
    }

    /// The vector of `word`.
    pub fn get(&self, word: &str) -> Option<&[f32]> {
        let i = *self.index.get(word)? as usize;
        self.data.get(i * self.dim..(i + 1) * self.dim)
    }

    /// The words, in file order (built on each call: the store keeps them in its hash map only).
    pub fn words(&self) -> Vec<&str> {
        let mut words: Vec<(&str, u32)> = self.index.iter().map(|(w, &i)| (&**w, i)).collect();
        words.sort_unstable_by_key(|&(_, i)| i);
        words.into_iter().map(|(w, _)| w).collect()
    }

    /// The vector of `word` divided by its Euclidean norm, computed in `f32` as NumPy does for
    /// gensim's `get_vector(word, norm=True)` (pairwise summation of the squares). A zero
    /// vector gives NaN components, as in gensim.
    pub fn get_normalized(&self, word: &str) -> Option<Vec<f32>> {
        let mut out = Vec::with_capacity(self.dim);
        self.extend_normalized(word, &mut out).then_some(out)
    }

    /// Appends [`WordVectors::get_normalized`]`(word)` to `out` without allocating; false (and
    /// nothing appended) when the word has no vector.
    pub fn extend_normalized(&self, word: &str, out: &mut Vec<f32>) -> bool {
        let Some(v) = self.get(word) else {
            return false;
        };
        let norm = pairwise_sum_map(v, |x| x * x).sqrt();
        out.extend(v.iter().map(|x| x / norm));
        true
    }
}

/// NumPy's pairwise summation of `f32` (`pairwise_sum` in `loops_utils.h`): sequential below 8
/// elements, eight interleaved partial sums up to 128, halves (cut at a multiple of 8) above.
pub fn numpy_pairwise_sum(a: &[f32]) -> f32 {
    pairwise_sum_map(a, |x| x)
}

/// [`numpy_pairwise_sum`] of `f(x)` for each element (NumPy computes `f` into a temporary
/// array first; the sums are the same).
fn pairwise_sum_map(a: &[f32], f: impl Fn(f32) -> f32 + Copy) -> f32 {
    let n = a.len();
    if n < 8 {
        // NumPy starts from -0.0 so that a sum of negative zeros stays negative zero.
        a.iter().fold(-0.0f32, |s, &x| s + f(x))
    } else if n <= 128 {
        let mut r = [0f32; 8];
        for (r, &x) in r.iter_mut().zip(&a[..8]) {
            *r = f(x);
        }
        let mut i = 8;
        while i + 8 <= n {
            for k in 0..8 {
                r[k] += f(a[i + k]);
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[i..] {
            res += f(x);
        }
        res
    } else {
        let n2 = (n / 2) & !7;
        pairwise_sum_map(&a[..n2], f) + pairwise_sum_map(&a[n2..], f)
    }
}

/// Guesses the format from the start of a file: a first line of two integers is a word2vec
/// header, and the file is binary when the 4 KiB after the header hold a byte that text files
/// do not (a control byte other than tab, CR, LF, or invalid UTF-8); otherwise GloVe text.
///
/// # Errors
/// When the start of the file cannot be read.
pub fn detect_format<R: BufRead>(reader: &mut R) -> std::io::Result<VectorFormat> {
    let mut first = Vec::new();
    reader.by_ref().take(4096).read_until(b'\n', &mut first)?;
    let first = first.strip_prefix(BOM).unwrap_or(&first);
    let text = String::from_utf8_lossy(first);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let header = fields.len() == 2 && fields.iter().all(|f| f.parse::<u64>().is_ok());
    if !header {
        return Ok(VectorFormat::GloveText);
    }
    let mut next = Vec::new();
    reader.by_ref().take(4096).read_to_end(&mut next)?;
    let control = next
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'));
    // A cut at the 4 KiB boundary may split a UTF-8 character: only errors before the end count.
    let bad_utf8 = match std::str::from_utf8(&next) {
        Ok(_) => false,
        Err(e) => e.error_len().is_some(),
    };
    Ok(if control || bad_utf8 {
        VectorFormat::Word2VecBinary
    } else {
        VectorFormat::Word2VecText
    })
}

/// Position tracking for error messages.
struct Reader<'a> {
    path: &'a Path,
    line: u64,
    offset: u64,
}

impl Reader<'_> {
    fn io(&self, source: std::io::Error) -> VectorError {
        VectorError::Io {
            path: self.path.to_path_buf(),
            source,
        }
    }

    fn bad(&self, location: String, message: impl Into<String>) -> VectorError {
        VectorError::Malformed {
            path: self.path.to_path_buf(),
            location,
            message: message.into(),
        }
    }

    /// A UTF-8 byte-order mark before the first line is not part of the first word.
    fn skip_bom<R: BufRead>(&mut self, reader: &mut R) -> Result<(), VectorError> {
        let head = reader.fill_buf().map_err(|e| self.io(e))?;
        if head.starts_with(BOM) {
            reader.consume(BOM.len());
            self.offset += BOM.len() as u64;
        }
        Ok(())
    }

    fn read_line<R: BufRead>(
        &mut self,
        reader: &mut R,
        buf: &mut Vec<u8>,
    ) -> Result<usize, VectorError> {
        buf.clear();
        let n = reader.read_until(b'\n', buf).map_err(|e| self.io(e))?;
        if n > 0 {
            self.line += 1;
            self.offset += n as u64;
        }
        Ok(n)
    }

    /// `VOCAB DIM` (gensim: `int()` of each white-space separated field).
    fn header<R: BufRead>(&mut self, reader: &mut R) -> Result<(usize, usize), VectorError> {
        let mut buf = Vec::new();
        self.read_line(reader, &mut buf)?;
        let text = String::from_utf8_lossy(&buf);
        let fields: Vec<&str> = text.split_whitespace().collect();
        match fields[..] {
            [count, dim] => match (count.parse::<usize>(), dim.parse::<usize>()) {
                (Ok(c), Ok(d)) if d > 0 => Ok((c, d)),
                _ => Err(self.bad(
                    "line 1".into(),
                    format!("the header must be `VOCAB DIM` with DIM > 0, got {:?}", text.trim_end()),
                )),
            },
            _ => Err(self.bad(
                "line 1".into(),
                format!(
                    "the header must be two numbers, `VOCAB DIM`, got {:?} (a GloVe file has no header: use the GloVe format)",
                    text.trim_end()
                ),
            )),
        }
    }

    fn binary<R: BufRead>(
        &mut self,
        reader: &mut R,
        v: &mut WordVectors,
        count: usize,
    ) -> Result<(), VectorError> {
        if count == 0 {
            return Ok(());
        }
        let mut word = Vec::new();
        let what = format!("one vector of {} dimensions", v.dim);
        let limit_err = |source| VectorError::Limit {
            path: self.path.to_path_buf(),
            source,
        };
        let mut bytes: Vec<u8> =
            limits::try_vec(&what, v.dim.saturating_mul(4)).map_err(limit_err)?;
        bytes.resize(v.dim.saturating_mul(4), 0);
        let mut vector: Vec<f32> = limits::try_vec(&what, v.dim).map_err(limit_err)?;
        vector.resize(v.dim, 0.0);
        let eof = |r: &Self, read: usize| {
            r.bad(
                format!("byte {}", r.offset),
                format!(
                    "unexpected end of input after {read} of {count} vectors; is the count in the header wrong or the file damaged?"
                ),
            )
        };
        for read in 0..count {
            word.clear();
            let start = self.offset;
            // Bounded, so that a file that is not binary word2vec is not buffered whole.
            let n = reader
                .by_ref()
                .take(MAX_WORD_BYTES + 1)
                .read_until(b' ', &mut word)
                .map_err(|e| self.io(e))?;
            self.offset += n as u64;
            if word.last() != Some(&b' ') {
                if n as u64 > MAX_WORD_BYTES {
                    return Err(self.bad(
                        format!("byte {start}"),
                        format!("no space within {MAX_WORD_BYTES} bytes: is this really a binary word2vec file?"),
                    ));
                }
                return Err(eof(self, read));
            }
            word.pop();
            let text = std::str::from_utf8(&word).map_err(|e| {
                self.bad(
                    format!("byte {}", start + e.valid_up_to() as u64),
                    "a word that is not UTF-8",
                )
            })?;
            let text = text.trim_start_matches('\n');
            match reader.read_exact(&mut bytes) {
                Ok(()) => self.offset += bytes.len() as u64,
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Err(eof(self, read))
                }
                Err(e) => return Err(self.io(e)),
            }
            let at = self.offset - bytes.len() as u64;
            for (i, (x, b)) in vector.iter_mut().zip(bytes.chunks_exact(4)).enumerate() {
                *x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if !x.is_finite() {
                    return Err(self.bad(
                        format!("byte {}", at + 4 * i as u64),
                        format!("component {} of {text:?} is {x}", i + 1),
                    ));
                }
            }
            v.push(text, &vector);
        }
        Ok(())
    }

    fn text<R: BufRead>(
        &mut self,
        reader: &mut R,
        v: &mut WordVectors,
        count: usize,
        glove: bool,
    ) -> Result<(), VectorError> {
        let mut buf = Vec::new();
        let mut vector = Vec::new();
        for read in 0..count {
            if self.read_line(reader, &mut buf)? == 0 {
                if glove {
                    break;
                }
                return Err(self.bad(
                    format!("line {}", self.line + 1),
                    format!(
                        "unexpected end of input after {read} of {count} vectors; is the count in the header wrong or the file damaged?"
                    ),
                ));
            }
            let line = std::str::from_utf8(&buf)
                .map_err(|_| self.bad(format!("line {}", self.line), "not UTF-8"))?;
            // Python's bytes.rstrip(): trailing ASCII white space.
            let line = line.trim_end_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
            let mut parts = line.split(' ');
            let word = parts.next().unwrap_or("");
            vector.clear();
            for p in parts {
                // Python's float(), then float32: parse as f64 and round.
                let x: f64 = p.trim().parse().map_err(|_| {
                    self.bad(
                        format!("line {}", self.line),
                        format!("{p:?} is not a number"),
                    )
                })?;
                let x = x as f32;
                if !x.is_finite() {
                    let what = if x.is_nan() {
                        "NaN".to_string()
                    } else {
                        format!("{x} (as f32)")
                    };
                    return Err(self.bad(
                        format!("line {}", self.line),
                        format!(
                            "component {} of {word:?} is {what}: {p:?}",
                            vector.len() + 1
                        ),
                    ));
                }
                vector.push(x);
            }
            if glove && v.dim == 0 {
                if vector.is_empty() {
                    return Err(self.bad(format!("line {}", self.line), "a word without a vector"));
                }
                v.dim = vector.len();
            }
            if vector.len() != v.dim {
                return Err(self.bad(
                    format!("line {}", self.line),
                    format!("{} numbers where {} were expected", vector.len(), v.dim),
                ));
            }
            v.push(word, &vector);
        }
        Ok(())
    }
}

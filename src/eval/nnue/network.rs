//! The quantised network and its file.
//!
//! Shape: inputs (see [`features`](super::features)) -> a feature transformer of `hidden` units
//! per viewer (i16 weights, scaled by [`QA`]) -> the squared clipped ReLU, `clamp(x, 0, 1)^2`
//! -> one output from both viewers' units, the side to move's first (i16 weights, scaled by
//! [`QB`]), with its own weights and bias per output bucket: the buckets split the positions by
//! the number of pieces on the board ([`features::output_bucket`]), so an ending is not judged
//! by the weights of an opening. The output is multiplied by `scale` to give the search's
//! evaluation units. A net
//! may be a correction of the hand-crafted evaluation (`adds_hand_crafted`): the search then
//! adds the two, which lets a net learnt from little data start from what the hand-crafted
//! evaluation knows (Chu's 11 232 inputs against a few million positions).
//!
//! A net may also have royal buckets: one set of inputs per bucket of the viewer's royal's
//! zone ([`features::royal_zone`]), each viewer's accumulator reading the set of its own
//! royal's bucket, so that what a piece is worth can depend on where the royal stands.
//!
//! File (little-endian): the magic `SHNN`, the format version (u32: 1, 2 for a net with flags,
//! 3 for a net with output buckets, 4 for a net with royal buckets), the family (u8: 0 Chu, 1
//! Heian), from version 2 a flags byte (bit 0: adds the hand-crafted evaluation), the number
//! of inputs (u32), `hidden` (u32), `scale` (u32), from version 3 the number of output buckets
//! (u32), in version 4 the number of royal buckets (u32), the transformer's weights
//! (inputs x hidden i16, input-major), its biases (hidden i16), the output weights (2 x hidden
//! i16 per bucket), the output biases (i32 per bucket), and last the FNV-1a hash (u64) of
//! everything before it. Each net is written in the oldest version that holds it.

use super::features;
use super::simd::{fits_i32_sums, screlu_dot, screlu_dot_in_i32, Lane};
use crate::board::Family;
use std::path::Path;

/// The transformer's quantisation: a unit's value 1.0 is `QA`.
pub(crate) const QA: i32 = 255;
/// The output weights' quantisation: a weight of 1.0 is `QB`.
pub(crate) const QB: i32 = 1024;
/// The four bytes a net file starts with.
pub(crate) const MAGIC: [u8; 4] = *b"SHNN";
/// The newest file format this build reads and writes (it reads every older one too).
pub(crate) const VERSION: u32 = 4;
/// The flag bit of a net that adds the hand-crafted evaluation.
const ADDS_HAND_CRAFTED: u8 = 1;
/// The most hidden units per viewer a file may declare.
pub(crate) const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare.
pub(crate) const MAX_BUCKETS: usize = 64;
/// The largest output magnitude, in evaluation units: a net with extreme weights saturates
/// here rather than wrapping around `i32`.
pub(crate) const MAX_OUTPUT: i32 = 1 << 20;
/// No net file of a shape this build reads is larger.
const MAX_FILE_BYTES: u64 = 1 << 30;

/// Why a net file was refused.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("cannot read the net file: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with the net magic.
    #[error("not a shishi net file (no SHNN header)")]
    Magic,
    /// A format version this build does not know.
    #[error("net file format version {0}; this build reads versions 1 to {VERSION}")]
    Version(u32),
    /// Flag bits this build does not know.
    #[error("net file has unknown flags {0:#04x}")]
    Flags(u8),
    /// The family byte is neither Chu nor Heian.
    #[error("net file names an unknown family ({0})")]
    Family(u8),
    /// The declared shape does not fit the family or the build.
    #[error("net file shape is wrong: {0}")]
    Shape(String),
    /// The file is longer or shorter than its shape says.
    #[error("net file is {actual} bytes, its header says {expected}")]
    Length {
        /// What the header implies.
        expected: usize,
        /// What the file holds.
        actual: usize,
    },
    /// The content does not match its checksum.
    #[error("net file is corrupt (checksum mismatch)")]
    Checksum,
    /// The net is for the other family.
    #[error("net file is for {found:?}, wanted {wanted:?}")]
    WrongFamily {
        /// The family the file serves.
        found: Family,
        /// The family asked for.
        wanted: Family,
    },
}

/// A quantised network, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The family whose inputs it reads.
    pub family: Family,
    /// Hidden units per viewer.
    pub hidden: usize,
    /// Output scale: evaluation units per output unit.
    pub scale: i32,
    /// Transformer weights, `inputs x hidden`, input-major.
    pub ft_weights: Vec<i16>,
    /// Transformer biases.
    pub ft_bias: Vec<i16>,
    /// Output buckets (1: none).
    pub buckets: usize,
    /// Royal buckets (1: none): the transformer has this many sets of the family's inputs.
    pub royal_buckets: usize,
    /// Output weights per bucket: the side to move's `hidden`, then the other side's.
    pub out_weights: Vec<i16>,
    /// Output bias per bucket, in `QA * QB` units.
    pub out_bias: Vec<i32>,
    /// Whether the search adds the hand-crafted evaluation to this net's output.
    pub adds_hand_crafted: bool,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network {{ family: {:?}, hidden: {}, buckets: {}, royal buckets: {}, adds_hand_crafted: {}, hash: {:#018x} }}",
            self.family,
            self.hidden,
            self.buckets,
            self.royal_buckets,
            self.adds_hand_crafted,
            fnv1a(&self.to_bytes())
        )
    }
}

impl Network {
    /// The net in words for a user: family, shape, checksum.
    pub fn describe(&self) -> String {
        format!(
            "{:?} net, {} hidden units, {} output bucket(s), {} royal bucket(s){}, checksum {:016x}",
            self.family,
            self.hidden,
            self.buckets,
            self.royal_buckets,
            if self.adds_hand_crafted {
                ", adds the hand-crafted evaluation"
            } else {
                ""
            },
            fnv1a(&self.to_bytes())
        )
    }
}

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

const HEADER_BYTES: usize = 4 + 4 + 1 + 4 + 4 + 4;

fn family_byte(family: Family) -> u8 {
    family.descriptor().index as u8
}

/// The header length of format `version`, checked against the file's `len`: a file cut short
/// inside its header is refused before any of it is read.
fn header_bytes(version: u32, len: usize) -> Result<usize, NetError> {
    let header = HEADER_BYTES
        + usize::from(version >= 2)
        + 4 * usize::from(version >= 3)
        + 4 * usize::from(version >= 4);
    if len < header {
        return Err(NetError::Length {
            expected: header,
            actual: len,
        });
    }
    Ok(header)
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().unwrap_or([0; N])
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    /// `n` numbers, on huge pages where the kernel gives them: the feature weights (17 MB for
    /// Chu) are read a row at a time at random, as the table is.
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        crate::platform::collect_on_huge_pages((0..n).map(|_| i16::from_le_bytes(self.take())))
    }
}

impl Network {
    /// Parses and checks a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES || bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let mut r = Reader(&bytes[4..]);
        let version = r.u32();
        if version == 0 || version > VERSION {
            return Err(NetError::Version(version));
        }
        let byte = r.take::<1>()[0];
        let family = *Family::ALL
            .get(usize::from(byte))
            .ok_or(NetError::Family(byte))?;
        let flags = if version >= 2 { r.take::<1>()[0] } else { 0 };
        if flags & !ADDS_HAND_CRAFTED != 0 {
            return Err(NetError::Flags(flags));
        }
        let header = header_bytes(version, bytes.len())?;
        let (inputs, hidden, scale) = (r.u32() as usize, r.u32() as usize, r.u32());
        let buckets = if version >= 3 { r.u32() as usize } else { 1 };
        let royal_buckets = if version >= 4 { r.u32() as usize } else { 1 };
        if !features::ROYAL_BUCKET_COUNTS.contains(&royal_buckets) {
            return Err(NetError::Shape(format!(
                "{royal_buckets} royal buckets (one of {:?})",
                features::ROYAL_BUCKET_COUNTS
            )));
        }
        if inputs != royal_buckets * features::feature_count(family) {
            return Err(NetError::Shape(format!(
                "{inputs} inputs, {family:?} has {} with {royal_buckets} royal bucket(s)",
                royal_buckets * features::feature_count(family)
            )));
        }
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(8) {
            return Err(NetError::Shape(format!(
                "{hidden} hidden units (a multiple of 8, at most {MAX_HIDDEN})"
            )));
        }
        if scale == 0 || scale > 100_000 {
            return Err(NetError::Shape(format!("output scale {scale}")));
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetError::Shape(format!(
                "{buckets} output buckets (1 to {MAX_BUCKETS})"
            )));
        }
        let expected =
            header + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8;
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                actual: bytes.len(),
            });
        }
        let (body, sum) = bytes.split_at(expected - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap_or([0; 8])) {
            return Err(NetError::Checksum);
        }
        let ft_weights = r.i16s(inputs * hidden);
        let ft_bias = r.i16s(hidden);
        let out_weights = r.i16s(buckets * 2 * hidden);
        let out_bias = (0..buckets).map(|_| i32::from_le_bytes(r.take())).collect();
        Ok(Network {
            family,
            hidden,
            scale: scale as i32,
            ft_weights,
            ft_bias,
            buckets,
            royal_buckets,
            out_weights,
            out_bias,
            adds_hand_crafted: flags & ADDS_HAND_CRAFTED != 0,
        })
    }

    /// Reads a net file and checks that it serves `family`.
    pub fn load(path: &Path, family: Option<Family>) -> Result<Network, NetError> {
        let bytes = crate::platform::read_capped(path, MAX_FILE_BYTES, "net file")?;
        let net = Network::from_bytes(&bytes)?;
        match family {
            Some(wanted) if wanted != net.family => Err(NetError::WrongFamily {
                found: net.family,
                wanted,
            }),
            _ => Ok(net),
        }
    }

    /// The file's bytes, checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + 2 * self.ft_weights.len() + 64);
        out.extend_from_slice(&MAGIC);
        let version: u32 = match (
            self.royal_buckets > 1,
            self.buckets > 1,
            self.adds_hand_crafted,
        ) {
            (true, _, _) => 4,
            (false, true, _) => 3,
            (false, false, true) => 2,
            (false, false, false) => 1,
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.push(family_byte(self.family));
        if version >= 2 {
            out.push(if self.adds_hand_crafted {
                ADDS_HAND_CRAFTED
            } else {
                0
            });
        }
        let inputs = (self.royal_buckets * features::feature_count(self.family)) as u32;
        for v in [inputs, self.hidden as u32, self.scale as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if version >= 3 {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        if version >= 4 {
            out.extend_from_slice(&(self.royal_buckets as u32).to_le_bytes());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The transformer's weights of one input.
    #[inline]
    pub fn column(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// Where the inputs `viewer`'s accumulator reads in `pos` start: its royal's bucket's set.
    #[inline]
    pub fn input_base(
        &self,
        pos: &crate::position::Position,
        viewer: crate::board::Color,
    ) -> usize {
        if self.royal_buckets == 1 {
            return 0;
        }
        let zone = features::royal_zone(pos, viewer, false);
        features::royal_bucket(zone, self.royal_buckets) * features::feature_count(self.family)
    }

    /// The output bucket of a position holding `pieces` pieces.
    #[inline]
    pub fn bucket(&self, pieces: usize) -> usize {
        features::output_bucket(self.family, pieces, self.buckets)
    }

    /// The output of `bucket` from both viewers' accumulators, the side to move's first, in
    /// evaluation units.
    pub(crate) fn output<L: Lane>(&self, us: &[L], them: &[L], bucket: usize) -> i32 {
        let (w_us, w_them) = self.output_weights(bucket);
        let sum = screlu_dot::<L, QA>(us, w_us) + screlu_dot::<L, QA>(them, w_them);
        self.scaled_output(sum, bucket)
    }

    /// Whether every output bucket's inner products fit i32 lanes whatever the accumulators
    /// hold, so that [`Network::output_in_i32`] gives what [`Network::output`] does.
    pub fn output_fits_i32(&self) -> bool {
        (0..self.buckets).all(|bucket| {
            let (w_us, w_them) = self.output_weights(bucket);
            fits_i32_sums::<QA>(w_us) && fits_i32_sums::<QA>(w_them)
        })
    }

    /// [`Network::output`] with each inner product summed in i32 lanes (faster); only for a
    /// net whose [`Network::output_fits_i32`] holds.
    pub(crate) fn output_in_i32<L: Lane>(&self, us: &[L], them: &[L], bucket: usize) -> i32 {
        let (w_us, w_them) = self.output_weights(bucket);
        let sum = screlu_dot_in_i32::<L, QA>(us, w_us) + screlu_dot_in_i32::<L, QA>(them, w_them);
        self.scaled_output(sum, bucket)
    }

    /// Whether a viewer's transformer sums fit i16 on every board of the family: a board holds
    /// at most one piece a square, so no sum is further from zero than the largest bias and a
    /// square's worth of the largest weights. The search then keeps its sums in i16
    /// ([`Lane`](super::simd::Lane)).
    pub fn sums_fit_i16(&self) -> bool {
        let side = features::grid_side(self.family) as u64;
        let largest = |values: &[i16]| values.iter().map(|v| v.unsigned_abs()).max();
        let weight = u64::from(largest(&self.ft_weights).unwrap_or(0));
        let bias = u64::from(largest(&self.ft_bias).unwrap_or(0));
        bias + side * side * weight <= i16::MAX as u64
    }

    /// `bucket`'s output weights: the side to move's, then the other side's.
    fn output_weights(&self, bucket: usize) -> (&[i16], &[i16]) {
        let h = self.hidden;
        self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h)
    }

    /// The output in evaluation units from `bucket`'s summed inner products.
    fn scaled_output(&self, sum: i64, bucket: usize) -> i32 {
        let raw = sum / i64::from(QA) + i64::from(self.out_bias[bucket]);
        let units = raw * i64::from(self.scale) / i64::from(QA * QB);
        units.clamp(-i64::from(MAX_OUTPUT), i64::from(MAX_OUTPUT)) as i32
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn tiny(family: Family, hidden: usize) -> Network {
        let inputs = features::feature_count(family);
        Network {
            family,
            hidden,
            scale: 400,
            ft_weights: (0..inputs * hidden).map(|i| (i % 61) as i16 - 30).collect(),
            ft_bias: (0..hidden).map(|i| (i % 7) as i16 * 10).collect(),
            buckets: 1,
            royal_buckets: 1,
            out_weights: (0..2 * hidden).map(|i| (i % 13) as i16 - 6).collect(),
            out_bias: vec![1234],
            adds_hand_crafted: false,
        }
    }

    /// A net of `royal_buckets` royal buckets whose sets of inputs all differ.
    pub(crate) fn royal_tiny(family: Family, hidden: usize, royal_buckets: usize) -> Network {
        let inputs = royal_buckets * features::feature_count(family);
        Network {
            royal_buckets,
            ft_weights: (0..inputs * hidden)
                .map(|i| ((i as u64).wrapping_mul(2_654_435_761) >> 9) as i16 % 61 - 30)
                .collect(),
            ..tiny(family, hidden)
        }
    }

    #[test]
    fn a_net_with_royal_buckets_survives_its_file_as_version_4_and_bad_counts_are_refused() {
        for royal_buckets in [2, 3, 6] {
            let net = Network {
                buckets: 2,
                out_weights: (0..2 * 2 * 16).map(|i| (i % 9) as i16 - 4).collect(),
                out_bias: vec![5, -5],
                ..royal_tiny(Family::Heian, 16, royal_buckets)
            };
            let bytes = net.to_bytes();
            assert_eq!(bytes[4], 4, "version 4");
            assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        }
        let mut bytes = royal_tiny(Family::Heian, 8, 3).to_bytes();
        // The royal bucket count follows the output bucket count (bytes 22 to 25).
        bytes[26..30].copy_from_slice(&4u32.to_le_bytes());
        let body = bytes.len() - 8;
        let sum = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        assert!(
            matches!(Network::from_bytes(&bytes), Err(NetError::Shape(ref m)) if m.contains("4 royal buckets")),
        );
    }

    fn bucketed(family: Family, hidden: usize, buckets: usize) -> Network {
        Network {
            buckets,
            out_weights: (0..buckets * 2 * hidden)
                .map(|i| (i % (2 * hidden) % 17) as i16 - 8)
                .collect(),
            out_bias: (0..buckets as i32).map(|b| 100_000 * b - 300_000).collect(),
            ..tiny(family, hidden)
        }
    }

    #[test]
    fn a_bucketed_net_survives_its_file_as_version_3_and_each_bucket_has_its_output() {
        let net = bucketed(Family::Heian, 16, 8);
        let bytes = net.to_bytes();
        assert_eq!(bytes[4], 3, "version 3");
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let residual = Network {
            adds_hand_crafted: true,
            ..bucketed(Family::Chu, 8, 4)
        };
        assert_eq!(Network::from_bytes(&residual.to_bytes()).unwrap(), residual);
        let us: Vec<i32> = (0..16).map(|i| i * 20).collect();
        let them: Vec<i32> = (0..16).map(|i| 300 - i * 15).collect();
        // Equal weights in every bucket, rising biases: rising outputs.
        let outputs: Vec<i32> = (0..8).map(|b| net.output(&us, &them, b)).collect();
        assert!(outputs.windows(2).all(|w| w[0] < w[1]), "{outputs:?}");
        // Bucket 5's weights are its own.
        let mut five = net.clone();
        five.out_weights[5 * 32..6 * 32].fill(0);
        for (b, &output) in outputs.iter().enumerate() {
            assert_eq!(five.output(&us, &them, b) == output, b != 5, "bucket {b}");
        }
        let mut zero = bytes.clone();
        zero[22..26].copy_from_slice(&0u32.to_le_bytes());
        let body = zero.len() - 8;
        let sum = fnv1a(&zero[..body]);
        zero[body..].copy_from_slice(&sum.to_le_bytes());
        assert!(
            matches!(Network::from_bytes(&zero), Err(NetError::Shape(ref m)) if m.contains("0 output buckets")),
        );
    }

    #[test]
    fn a_net_survives_its_file() {
        let net = tiny(Family::Heian, 16);
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    }

    #[test]
    fn a_correction_net_survives_its_file_and_unknown_flags_are_refused() {
        let net = Network {
            adds_hand_crafted: true,
            ..tiny(Family::Chu, 8)
        };
        let bytes = net.to_bytes();
        assert_eq!(bytes[4], 2, "version 2");
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let plain = tiny(Family::Chu, 8).to_bytes();
        assert_eq!(plain[4], 1, "a net without flags stays version 1");
        assert_eq!(bytes.len(), plain.len() + 1);
        let mut flags = bytes.clone();
        flags[9] = 0x83;
        let body = flags.len() - 8;
        let sum = fnv1a(&flags[..body]);
        flags[body..].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&flags),
            Err(NetError::Flags(0x83))
        ));
    }

    #[test]
    fn corrupt_and_mismatched_files_are_refused_by_name() {
        let bytes = tiny(Family::Heian, 16).to_bytes();
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(matches!(
            Network::from_bytes(&flipped),
            Err(NetError::Checksum)
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length { .. })
        ));
        assert!(matches!(
            Network::from_bytes(b"hello"),
            Err(NetError::Magic)
        ));
        let mut version = bytes.clone();
        version[4] = 9;
        assert!(matches!(
            Network::from_bytes(&version),
            Err(NetError::Version(9))
        ));
        let mut family = bytes.clone();
        family[8] = 0;
        assert!(matches!(
            Network::from_bytes(&family),
            Err(NetError::Shape(_))
        ));
        let dir = std::env::temp_dir().join(format!("shishi-net-{}", std::process::id()));
        std::fs::write(&dir, &bytes).unwrap();
        let err = Network::load(&dir, Some(Family::Chu)).unwrap_err();
        std::fs::remove_file(&dir).ok();
        assert!(matches!(err, NetError::WrongFamily { .. }), "{err}");
    }
}

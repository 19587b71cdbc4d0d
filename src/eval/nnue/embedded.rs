//! The nets compiled into the binary, one per family that has one (their bytes are the crate
//! `shishi-nets`). A family without a net is evaluated by the hand-crafted evaluation.

use super::network::Network;
use crate::board::Family;
use shishi_nets::{CHU_ZSTD, HEIAN};
use std::io::Read;
use std::sync::{Arc, OnceLock};

/// The bytes of a zstd frame, or `None` if it is not one.
fn unpacked(frame: &[u8]) -> Option<Vec<u8>> {
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(frame).ok()?;
    let mut bytes = Vec::new();
    decoder.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The embedded net of `family`, if it has one. The bytes are checked like any file's; a
/// build whose embedded net fails the check (it cannot, a test reads it) evaluates by hand.
pub(crate) fn embedded(family: Family) -> Option<Arc<Network>> {
    static HEIAN_NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    static CHU_NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    match family {
        Family::Chu => CHU_NET
            .get_or_init(|| {
                let bytes = unpacked(CHU_ZSTD)?;
                Network::from_bytes(&bytes).ok().map(Arc::new)
            })
            .clone(),
        Family::Heian => HEIAN_NET
            .get_or_init(|| Network::from_bytes(HEIAN).ok().map(Arc::new))
            .clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_heian_net_loads() {
        let net = embedded(Family::Heian).expect("the embedded Heian net is valid");
        assert_eq!(net.family, Family::Heian);
    }

    #[test]
    fn the_embedded_chu_net_unpacks_and_loads() {
        let net = embedded(Family::Chu).expect("the embedded Chu net is valid");
        assert_eq!(net.family, Family::Chu);
        assert_eq!(net.hidden, 128);
    }

    /// The embedded nets take the faster output (sums in i32 lanes), and it gives what the
    /// exact one does, clamps included; a net with the largest weights does not take it. Their
    /// transformer sums fit i16 on any board, so the search keeps them in i16.
    #[test]
    fn the_embedded_nets_output_in_i32_lanes_as_exactly() {
        for family in [Family::Chu, Family::Heian] {
            let net = embedded(family).unwrap();
            assert!(net.output_fits_i32(), "{family:?}");
            assert!(net.sums_fit_i16(), "{family:?}");
            let h = net.hidden;
            for seed in 0..200u64 {
                let sums = |salt: u64| -> Vec<i32> {
                    (0..h as u64)
                        .map(|i| ((seed * 7919 + i * 104_729 + salt) % 700) as i32 - 200)
                        .collect()
                };
                let (us, them) = (sums(1), sums(2));
                for bucket in 0..net.buckets {
                    assert_eq!(
                        net.output_in_i32(&us, &them, bucket),
                        net.output(&us, &them, bucket),
                        "{family:?} seed {seed} bucket {bucket}"
                    );
                }
            }
            let heavy = Network {
                out_weights: vec![i16::MAX; net.out_weights.len()],
                ..(*net).clone()
            };
            assert!(!heavy.output_fits_i32(), "{family:?}");
        }
    }

    #[test]
    fn bytes_that_are_no_zstd_frame_unpack_to_nothing() {
        assert_eq!(unpacked(HEIAN), None);
        assert_eq!(unpacked(&CHU_ZSTD[..CHU_ZSTD.len() / 2]), None);
    }
}

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

    #[test]
    fn bytes_that_are_no_zstd_frame_unpack_to_nothing() {
        assert_eq!(unpacked(HEIAN), None);
        assert_eq!(unpacked(&CHU_ZSTD[..CHU_ZSTD.len() / 2]), None);
    }
}

//! The nets compiled into the binary, one per family that has one. A family without a net
//! is evaluated by the hand-crafted evaluation.

use super::network::Network;
use crate::board::Family;
use std::sync::{Arc, OnceLock};

const HEIAN: &[u8] = include_bytes!("nets/heian.nnue");

/// The embedded net of `family`, if it has one. The bytes are checked like any file's; a
/// build whose embedded net fails the check (it cannot, a test reads it) evaluates by hand.
pub(crate) fn embedded(family: Family) -> Option<Arc<Network>> {
    static HEIAN_NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    match family {
        Family::Chu => None,
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
}

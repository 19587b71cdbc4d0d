//! What the USI and XBoard sessions share: the option settings and the search engine made from
//! them. Options change only through `Core::set_option`, and the engine is brought up to date
//! with the settings whenever it is used, so a new hash size, thread count, MultiPV or move
//! overhead reaches the next search the same way in both protocols, whichever command set it.

use super::options::{Changed, OptionError, Settings};
use crate::search::Engine;

/// The settings and the engine of one protocol session.
#[derive(Default)]
pub struct Core {
    settings: Settings,
    /// Made on first use.
    engine: Option<Engine>,
}

impl Core {
    /// The option settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Reads and applies one option (`Settings::set`); the session acts on what changed in
    /// its position (rules, variant), the engine follows at its next use.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<Changed, OptionError> {
        self.settings.set(name, value)
    }

    /// Sets the variant of `position startpos` (XBoard's `new` and `variant`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn set_variant(&mut self, variant: crate::board::Variant) {
        self.settings.variant = variant;
    }

    /// The engine, made on first use, with the current engine options.
    pub fn engine(&mut self) -> &mut Engine {
        let options = &self.settings.engine;
        match &mut self.engine {
            Some(engine) => {
                if engine.options() != options {
                    engine.set_options(options.clone());
                }
                engine
            }
            none => none.insert(Engine::new(options.clone())),
        }
    }
}

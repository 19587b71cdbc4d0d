//! The layers of `src/` and of the core crate's `core/src/` read top-down: each module may use
//! only modules of lower layers. This test reads every source file of each top-level module and
//! fails on an upward (or sideways) `crate::` path, naming the file and the module it reaches
//! for. The core's modules are the lowest layers, so the core never needs the engine: it could
//! not name it if it tried (a crate cannot depend on its dependant).

use std::path::{Path, PathBuf};

/// Lowest first. A module may use the modules of the layers before its own, never its own
/// layer's neighbours or anything later.
const LAYERS: &[&[&str]] = &[
    &["platform"],
    &["board"],
    &["rules", "moves"],
    &["position"],
    &["movegen"],
    &["notation"],
    &["perft"],
    &["game"],
    &["record"],
    &["tsume"],
    &["eval"],
    &["search", "matchplay"],
    &["training", "analysis"],
    &["protocol"],
    &["cli", "fuzzing"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, out);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// Every `crate::<module>` named in `text`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.push(name);
        }
    }
    found
}

#[test]
fn no_module_reaches_up_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut violations = Vec::new();
    let mut modules_seen = 0;
    for layer in LAYERS {
        for &module in *layer {
            let mut files = Vec::new();
            for src in [root.join("src"), root.join("core/src")] {
                let dir = src.join(module);
                let file = src.join(format!("{module}.rs"));
                rust_files(if dir.is_dir() { &dir } else { &file }, &mut files);
            }
            assert!(
                !files.is_empty(),
                "module {module} has no source in src/ or core/src/"
            );
            modules_seen += 1;
            let own = layer_of(module).unwrap();
            for path in files {
                let text = std::fs::read_to_string(&path).unwrap();
                for used in crate_paths(&text) {
                    if used == module {
                        continue;
                    }
                    let allowed = layer_of(&used).is_some_and(|l| l < own);
                    if !allowed {
                        violations.push(format!(
                            "{} (layer {module}) uses crate::{used}",
                            path.strip_prefix(root).unwrap().display()
                        ));
                    }
                }
            }
        }
    }
    assert!(modules_seen >= 14);
    assert!(
        violations.is_empty(),
        "upward imports:\n{}",
        violations.join("\n")
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for lib in ["src/lib.rs", "core/src/lib.rs"] {
        let text = std::fs::read_to_string(root.join(lib)).unwrap();
        for line in text.lines() {
            if let Some(name) = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))
            {
                let name = name.trim_end_matches(';');
                assert!(layer_of(name).is_some(), "{lib} module {name} has no layer");
                seen += 1;
            }
        }
    }
    assert!(seen >= 18, "{seen} modules");
}

#[test]
fn the_core_holds_only_the_lowest_layers() {
    // Every module of the core sits below every module of the engine.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = |lib: &str| -> Vec<usize> {
        std::fs::read_to_string(root.join(lib))
            .unwrap()
            .lines()
            .filter_map(|l| {
                l.strip_prefix("pub mod ")
                    .or_else(|| l.strip_prefix("mod "))
            })
            .map(|n| layer_of(n.trim_end_matches(';')).unwrap())
            .collect()
    };
    let core_top = modules("core/src/lib.rs").into_iter().max().unwrap();
    let engine_bottom = modules("src/lib.rs").into_iter().min().unwrap();
    assert!(core_top < engine_bottom, "{core_top} >= {engine_bottom}");
}

#[test]
fn the_checker_sees_an_upward_path() {
    assert_eq!(
        crate_paths("use crate::search::eval;\nlet x = crate::cli::run();"),
        vec!["search", "cli"]
    );
    assert!(layer_of("cli").unwrap() > layer_of("board").unwrap());
}

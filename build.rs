//! Records the commit the binary is built from, for `shishi --version`: git's short hash, with
//! `-modified` when tracked files differ from that commit, and `unknown` outside a git checkout
//! (a crates.io package). A release artifact names the source it came from.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=10", "HEAD"]);
    let modified = git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty());
    let text = match (commit, modified) {
        (Some(commit), Some(true)) => format!("{commit}-modified"),
        (Some(commit), _) => commit,
        (None, _) => "unknown".to_string(),
    };
    println!("cargo:rustc-env=SHISHI_COMMIT={text}");
    // Run again when the commit moves or the files built in change.
    for path in ["build.rs", "Cargo.toml", "src", "positions/bench.epd"] {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/index");
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={git_dir}/{branch}");
        }
    }
}

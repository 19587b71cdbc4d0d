//! The `shishi` binary: hands the command line to `cli`.

fn main() {
    std::process::exit(shishi::cli::run());
}

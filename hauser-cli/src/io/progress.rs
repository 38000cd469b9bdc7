//! Progress bars on standard error (drawn only when it is a terminal).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar for `total` items (a spinner when unknown) labelled `what`.
pub fn bar(total: Option<usize>, what: &str) -> ProgressBar {
    styled(
        total.map(|n| n as u64),
        what,
        "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
        "{msg} [{elapsed_precise}] {spinner} {pos} ({per_sec})",
    )
}

/// A progress bar for `total` bytes (a spinner when unknown, e.g. standard input) labelled
/// `what`.
pub fn bytes(total: Option<u64>, what: &str) -> ProgressBar {
    styled(
        total,
        what,
        "{msg} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, eta {eta})",
        "{msg} [{elapsed_precise}] {spinner} {bytes} ({bytes_per_sec})",
    )
}

fn styled(total: Option<u64>, what: &str, known: &str, unknown: &str) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let template = if total.is_some() { known } else { unknown };
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style);
    }
    pb.set_message(what.to_string());
    pb
}

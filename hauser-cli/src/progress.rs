//! Progress bars on standard error (drawn only when it is a terminal).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar for `total` items (a spinner when unknown) labelled `what`.
pub fn bar(total: Option<usize>, what: &str) -> ProgressBar {
    let pb = match total {
        Some(n) => ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr()),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
    };
    let template = if total.is_some() {
        "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})"
    } else {
        "{msg} [{elapsed_precise}] {spinner} {pos} ({per_sec})"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style);
    }
    pb.set_message(what.to_string());
    pb
}

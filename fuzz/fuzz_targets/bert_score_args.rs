#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| hauser_fuzz::targets::bert_score_args(data));

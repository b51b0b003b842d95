//! The WARC/ARC reader and the HTTP layer on arbitrary bytes.
//!
//! The first byte picks how the rest is read: as it is (plain, or gzip if it starts
//! like gzip), gzip-compressed whole here (so the mutations reach the record
//! layer under gzip), or cut into gzip members at every `WARC/` (one member per
//! record); and whether pages also go through the `links` job. Small limits make
//! the limit paths reachable. Nothing may panic, and the reader must end: every
//! item it hands out consumes input.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use tagloom_warc::{HttpResponse, Job, JobKind, Limits, WarcReader};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("in memory");
    gz.finish().expect("in memory")
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let input = match first % 3 {
        0 => rest.to_vec(),
        1 => gzip(rest),
        _ => {
            let mut out = Vec::new();
            let mut start = 0;
            for i in memchr::memmem::find_iter(rest, b"WARC/").chain([rest.len()]) {
                if i > start {
                    out.extend(gzip(&rest[start..i]));
                }
                start = i;
            }
            out
        }
    };
    let limits = Limits {
        max_header_bytes: 512,
        max_body_bytes: 8192,
        max_decoded_bytes: 1 << 16,
    };
    let job = (first & 0x80 != 0).then(|| Job::new(JobKind::Links).with_limits(limits));
    let Ok(reader) = WarcReader::new(&input[..], limits) else {
        return;
    };
    let mut items = 0usize;
    for record in reader.into_records() {
        items += 1;
        assert!(items <= input.len() + 2, "the reader does not end");
        if let Ok(record) = &record
            && let Ok(http) = HttpResponse::parse(&record.body, &limits)
        {
            let _ = http.transport_encoding();
            if let Ok(payload) = http.payload(&limits) {
                assert!(
                    payload.len() as u64 <= limits.max_decoded_bytes.max(record.body.len() as u64)
                );
            }
        }
        if let Some(job) = &job {
            let _ = job.run_record("fuzz", record);
        }
    }
});

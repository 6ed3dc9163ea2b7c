// halforacle: the half crate's bfloat16 conversions as a stream, for
// clconv's oracle checks.
//
//   halforacle f32 LO HI   writes bf16::from_f32 of every binary32 pattern in
//                          [LO, HI) as little-endian u16s
//   halforacle f64         reads little-endian u64 binary64 patterns from
//                          stdin and writes bf16::from_f64 of each
//   halforacle to32        writes bf16::to_f32 of every bf16 pattern as u32s
//   halforacle to64        writes bf16::to_f64 of every bf16 pattern as u64s
use half::bf16;
use std::io::{self, BufReader, BufWriter, Read, Write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = io::stdout();
    let mut w = BufWriter::with_capacity(1 << 20, out.lock());
    match args[1].as_str() {
        "f32" => {
            let lo: u64 = args[2].parse().unwrap();
            let hi: u64 = args[3].parse().unwrap();
            let mut buf = Vec::with_capacity(1 << 17);
            let mut b = lo;
            while b < hi {
                buf.clear();
                let end = std::cmp::min(hi, b + (1 << 16));
                while b < end {
                    let x = f32::from_bits(b as u32);
                    buf.extend_from_slice(&bf16::from_f32(x).to_bits().to_le_bytes());
                    b += 1;
                }
                w.write_all(&buf).unwrap();
            }
        }
        "f64" => {
            let mut r = BufReader::with_capacity(1 << 20, io::stdin());
            let mut rec = [0u8; 8];
            while r.read_exact(&mut rec).is_ok() {
                let x = f64::from_bits(u64::from_le_bytes(rec));
                w.write_all(&bf16::from_f64(x).to_bits().to_le_bytes()).unwrap();
            }
        }
        "to32" => {
            for b in 0..=0xffffu16 {
                w.write_all(&bf16::from_bits(b).to_f32().to_bits().to_le_bytes()).unwrap();
            }
        }
        "to64" => {
            for b in 0..=0xffffu16 {
                w.write_all(&bf16::from_bits(b).to_f64().to_bits().to_le_bytes()).unwrap();
            }
        }
        _ => panic!("unknown mode"),
    }
    w.flush().unwrap();
}

;; A memory.fill of 2^31 bytes from near the end of a one-page memory. wasmtime charges a bulk
;; operation its length before it checks the range, so this ran out of fuel (`fuel`); the
;; sandbox checks the range first: an out-of-bounds access (`crash`), charged only the check.
(module
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (memory.fill (i32.const 65000) (i32.const 7) (i32.const 0x80000000))
    (i64.const 0)))

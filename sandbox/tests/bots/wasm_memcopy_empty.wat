;; Many empty memory.copy operations whose length is not a constant, so each is checked by the
;; sandbox (a host call, see bulk.rs) before wasmtime charges and runs it: the cost of the check
;; per unit of fuel. Ends in `fuel`.
(module
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (local $n i32)
    (local.set $n (i32.const 0))
    (loop $again
      (memory.copy (i32.const 0) (i32.const 4096) (local.get $n))
      (br $again))
    (i64.const 0)))

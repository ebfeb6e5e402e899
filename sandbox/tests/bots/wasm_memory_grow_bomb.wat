;; Grows memory a page at a time, ignoring failures.
(module
  (memory (export "memory") 1)
  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (loop $more
      (drop (memory.grow (i32.const 1)))
      (br $more))
    (i64.const 0)))

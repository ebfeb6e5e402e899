;; A well-behaved WASM bot: checksums its input and answers "play 7".
(module
  (import "env" "log" (func $log (param i32 i32)))
  (import "env" "budget_left" (func $budget_left (result i64)))
  (memory (export "memory") 4)
  (data (i32.const 16) "play 7")
  (data (i32.const 32) "hello from wasm")
  (global $sum (mut i32) (i32.const 0))
  (func (export "alloc") (param $len i32) (result i32)
    (i32.const 65536))
  (func (export "init") (param $ptr i32) (param $len i32)
    (call $log (i32.const 32) (i32.const 15)))
  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (global.set $sum
          (i32.add (global.get $sum)
                   (i32.load8_u (i32.add (local.get $ptr) (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 6))))

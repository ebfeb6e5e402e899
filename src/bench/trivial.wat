;; trivial.wat: the benchmark's trivial WASM bot (any game): the first action of "legal".
;; It finds the key with one 8-byte comparison per position, so its own work is small
;; (about 5 fuel per byte up to the key) and a decision measures the arena's overhead: encoding
;; the observation, the call, reading the reply. (example_bots/wat/first_legal.wat does the
;; same job written for reading, at about 35 fuel per byte.)
(module
  (memory (export "memory") 1)
  ;; The host writes each observation here; the first page holds observations up to 63 KiB.
  (global $input i32 (i32.const 1024))

  (func (export "alloc") (param $len i32) (result i32)
    (local $need i32)
    (local.set $need
      (i32.shr_u (i32.add (i32.add (global.get $input) (local.get $len)) (i32.const 65535))
                 (i32.const 16)))
    (if (i32.gt_u (local.get $need) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $need) (memory.size))))))
    (global.get $input))

  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32) (local $end i32) (local $start i32)
    (local.set $end (i32.sub (i32.add (local.get $ptr) (local.get $len)) (i32.const 10)))
    (local.set $at (local.get $ptr))
    ;; the 8 bytes `"legal":`, read as one little-endian i64
    (block $found
      (loop $scan
        (br_if $found (i64.eq (i64.load (local.get $at)) (i64.const 0x3a226c6167656c22)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br_if $scan (i32.lt_u (local.get $at) (local.get $end)))
        (unreachable)))
    ;; `"legal":["` is 10 bytes; the action runs to the next quote
    (local.set $start (i32.add (local.get $at) (i32.const 10)))
    (local.set $at (local.get $start))
    (block $close
      (loop $text
        (br_if $close (i32.eq (i32.load8_u (local.get $at)) (i32.const 34)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $text)))
    (i64.or (i64.shl (i64.extend_i32_u (local.get $start)) (i64.const 32))
            (i64.extend_i32_u (i32.sub (local.get $at) (local.get $start))))))

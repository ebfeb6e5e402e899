;; trivial.wat: the benchmark's trivial WASM bot (any game): the first action of "legal".
;; A decision is meant to measure the arena's overhead (encoding the observation, the call,
;; reading the reply), so the bot's own work is kept small: it looks for the key `"legal":`
;; eight bytes at a time, with the usual word-at-a-time test for the two bytes `"l` (so JSON's
;; many other quotes are not candidates), and compares the whole key only where they occur.
;; (example_bots/wat/first_legal.wat does the same job byte by byte, written for reading.)
(module
  (memory (export "memory") 1)
  ;; The host writes each observation here; the first page holds observations up to 63 KiB.
  (global $input i32 (i32.const 1024))

  ;; Room for the observation and 16 bytes after it, which the word reads may touch.
  (func (export "alloc") (param $len i32) (result i32)
    (local $need i32)
    (local.set $need
      (i32.shr_u (i32.add (i32.add (global.get $input) (local.get $len)) (i32.const 65551))
                 (i32.const 16)))
    (if (i32.gt_u (local.get $need) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $need) (memory.size))))))
    (global.get $input))

  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32) (local $end i32) (local $start i32) (local $m i64) (local $hits i64)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $at (local.get $ptr))
    (block $found
      (loop $scan
        (if (i32.ge_u (local.get $at) (local.get $end)) (then (unreachable)))
        ;; byte i of $m is zero where bytes at+i and at+i+1 are `"` and `l`
        (local.set $m
          (i64.or (i64.xor (i64.load (local.get $at)) (i64.const 0x2222222222222222))
                  (i64.xor (i64.load offset=1 (local.get $at)) (i64.const 0x6c6c6c6c6c6c6c6c))))
        ;; the high bit of each zero byte (the lowest one is exact; the others are checked)
        (local.set $hits
          (i64.and (i64.and (i64.sub (local.get $m) (i64.const 0x0101010101010101))
                            (i64.xor (local.get $m) (i64.const -1)))
                   (i64.const 0x8080808080808080)))
        (if (i64.eqz (local.get $hits))
          (then
            (local.set $at (i32.add (local.get $at) (i32.const 8)))
            (br $scan)))
        (local.set $at
          (i32.add (local.get $at) (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $hits)) (i64.const 3)))))
        ;; the 8 bytes `"legal":`, read as one little-endian i64
        (br_if $found (i64.eq (i64.load (local.get $at)) (i64.const 0x3a226c6167656c22)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
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

;; kuhn_king.wat: a Kuhn poker bot in WebAssembly text. It bets or calls with the K and checks
;; or folds with anything else: it answers the second legal action (`bet`, `call`) when the
;; observation's "card" is "K", the first (`check`, `fold`) otherwise.
;;
;;   kuhn-arena play --game kuhn --bots nash,examples/kuhn-arena/bots/kuhn_king.wat
;;
;; The ABI (docs/bot-api.md): export `memory`, `alloc(len) -> ptr` and `act(ptr, len) -> i64`,
;; where the i64 packs the reply as (ptr << 32) | len. The replies are constant strings.
(module
  (memory (export "memory") 1)

  ;; The key we look for, at address 16: the 8 bytes `"card":"`.
  (data (i32.const 16) "\22card\22:\22")
  ;; The replies, at 32 and 48: `bet`/`call` (aggressive), `check`/`fold` (passive).
  (data (i32.const 32) "betcall")
  (data (i32.const 48) "checkfold")

  ;; The host writes each observation here.
  (global $input i32 (i32.const 1024))

  ;; alloc(len): always the same buffer, grown to hold 1024 + len bytes.
  (func (export "alloc") (param $len i32) (result i32)
    (local $need i32)
    (local.set $need
      (i32.shr_u (i32.add (i32.add (global.get $input) (local.get $len)) (i32.const 65535))
                 (i32.const 16)))
    (if (i32.gt_u (local.get $need) (memory.size))
      (then (drop (memory.grow (i32.sub (local.get $need) (memory.size))))))
    (global.get $input))

  ;; Whether the 8 bytes at $at are `"card":"`.
  (func $is_card_key (param $at i32) (result i32)
    (i64.eq (i64.load (local.get $at)) (i64.load (i32.const 16))))

  ;; Whether `"fold"` is in the observation: it is a legal action when (and only when) the
  ;; seat faces a bet (a betting with a fold is over, and the bot is not asked).
  (func $facing_bet (param $ptr i32) (param $end i32) (result i32)
    (local $at i32)
    (local.set $at (local.get $ptr))
    (block $no
      (loop $scan
        (br_if $no (i32.gt_u (i32.add (local.get $at) (i32.const 6)) (local.get $end)))
        ;; `"fold"` is the bytes 22 66 6f 6c 64 22
        (if (i32.and
              (i32.eq (i32.load (local.get $at)) (i32.const 0x6c6f6622))
              (i32.eq (i32.load16_u (i32.add (local.get $at) (i32.const 4))) (i32.const 0x2264)))
          (then (return (i32.const 1))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
    (i32.const 0))

  ;; act(ptr, len): find the card, then answer.
  (func (export "act") (param $ptr i32) (param $len i32) (result i64)
    (local $at i32)
    (local $end i32)
    (local $king i32)
    (local $facing i32)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $at (local.get $ptr))
    (block $found
      (loop $scan
        (if (i32.gt_u (i32.add (local.get $at) (i32.const 9)) (local.get $end))
          (then (unreachable)))                          ;; no card: trap (verdict `crash`)
        (br_if $found (call $is_card_key (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $scan)))
    ;; the card's letter follows the key
    (local.set $king (i32.eq (i32.load8_u (i32.add (local.get $at) (i32.const 8))) (i32.const 75)))
    (local.set $facing (call $facing_bet (local.get $ptr) (local.get $end)))
    (if (result i64) (local.get $king)
      (then
        (if (result i64) (local.get $facing)
          (then (i64.or (i64.shl (i64.const 35) (i64.const 32)) (i64.const 4)))     ;; "call"
          (else (i64.or (i64.shl (i64.const 32) (i64.const 32)) (i64.const 3)))))   ;; "bet"
      (else
        (if (result i64) (local.get $facing)
          (then (i64.or (i64.shl (i64.const 53) (i64.const 32)) (i64.const 4)))     ;; "fold"
          (else (i64.or (i64.shl (i64.const 48) (i64.const 32)) (i64.const 5))))))) ;; "check"
)

---@meta
-- cardarena: the blade observation, for the Lua language server (VS Code: the "Lua"
-- extension by sumneko). Generated from the arena's Rust types by `arena new` (the same
-- text as `arena schema --game blade --lua`); do not edit.
-- Arrays are 1-based Lua sequences: the entry of seat s is at [s + 1]. JSON null is nil.

--- What one seat sees (CONTRACT.md §2). Field order is the JSON order; see `docs/games/blade.md`.
---@class BladeObservation
---@field deck_counts integer[] Cards left in each seat's deck.
---@field fields BladeFieldCard[][] Both fields, in seat order, bottom card first.
---@field game string Always `"blade"`.
---@field hand BladeCard[] This seat's hand, sorted 1..7, B, M.
---@field hand_counts integer[] Cards in each seat's hand.
---@field history BladeEvent[] Every public event of the match, oldest first.
---@field legal string[] Every legal action for this seat: the distinct cards in hand, in the order 1..7, B, M.
---@field phase BladePhase `setup`, `turn` or `over`.
---@field result BladeEnding? How the match ended, `null` while it goes on.
---@field scores integer[] Both field scores, in seat order.
---@field seat integer The seat this observation is for.
---@field to_act integer? The seat whose decision is open, `null` once the match is over.
---@field unseen BladeCard[] The cards this seat has not seen (opponent's hand and both decks), sorted.
---@field variant BladeVariant The rule set.

--- One Blade card. The derived order (`1` < … < `7` < `B` < `M`) is the order of hands and of `legal`.
---@alias BladeCard
---| "1" # `1`: revives the own bolted top card, else lies on the field worth 1.
---| "2" # `2`, worth 2.
---| "3" # `3`, worth 3.
---| "4" # `4`, worth 4.
---| "5" # `5`, worth 5.
---| "6" # `6`, worth 6.
---| "7" # `7`, worth 7.
---| "B" # `B`, Bolt: invalidates the opponent's top card. Worth 1 if placed at set-up.
---| "M" # `M`, Mirror: swaps the fields. Worth 1 if placed at set-up.

--- Why the match ended.
---@alias BladeEndReason
---| "fell_behind" # The mover's field stayed lower than the opponent's after its play.
---| "last_card_effect" # The mover played B or M as its last hand card.
---| "out_of_cards" # The mover's hand was empty at the start of its turn while the opponent still had cards.
---| "final_scores" # Both hands empty: the higher field wins, equal fields draw.
---| "setup_out_of_cards" # A seat had to set up with an empty deck and an empty hand.

--- How the match ended: the winner (`None` for a draw) and why.
---@class BladeEnding
---@field reason BladeEndReason Why.
---@field winner integer? The winning seat, `null` for a draw.

--- One public event of the match, in the observation's `history`.
---@class BladeEvent
---@field kind "place"|"play"|"reinit" place: A card placed on a field at set-up. | play: A card played in a turn; `scores` are both field scores after it, in seat order. | reinit: Both fields scored `score`: they are cleared (hands kept) and set up again.
---@field card BladeCard? (place, play only) The card (B and M count 1 here).
---@field from BladeSource? (place only) Deck top or hand pick.
---@field seat integer? (place, play only) Whose field.
---@field scores integer[]? (play only) Field scores after the play (unchanged if it was a losing last-card B/M).
---@field score integer? (reinit only) The tied score.

--- A card lying on a field.
---@class BladeFieldCard
---@field card BladeCard The card.
---@field valid boolean `false` once bolted (then it is worth 0).

--- The phase named in observations.
---@alias BladePhase
---| "setup" # A set-up pick from hand is open (the deck of the seat to act is empty).
---| "turn" # A turn is open.
---| "over" # The match is over.

--- Where a set-up card came from.
---@alias BladeSource
---| "deck" # The top of the seat's deck (automatic).
---| "hand" # Chosen from the hand, because the deck was empty.

--- The rule set.
---@alias BladeVariant
---| "readme" # The newer seed README: 1×2, 2×3, 3×4, 4×4, 5×4, 6×3, 7×2, B×6, M×4; set-up with empty deck and empty hand is a draw; win 2, draw 1, loss 0.
---| "controller" # `controller.rb`: four 2s and three Mirrors; set-up with empty deck and empty hand loses unless the opponent is out of cards too (then a draw); win 2, draw 2 for both, loss 0.

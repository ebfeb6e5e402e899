---@meta
-- cardarena: the intensity observation, for the Lua language server (VS Code: the "Lua"
-- extension by sumneko). Generated from the arena's Rust types by `arena new` (the same
-- text as `arena schema --game intensity --lua`); do not edit.
-- Arrays are 1-based Lua sequences: the entry of seat s is at [s + 1]. JSON null is nil.

--- What one seat sees: the JSON a bot receives. Every field is documented in docs/games/intensity.md; cards are numbers.
---@class IntensityObservation
---@field calves_broken boolean Whether a calf has been played in a finished trick (calves may then be led).
---@field cards_left integer[] Cards in each seat's hand, in seat order.
---@field fault_penalties integer[] The part of `penalties` that comes from faults (+5 each), in seat order.
---@field game string Always `"intensity"`.
---@field hand IntensityCard[] This seat's hand, ascending.
---@field legal string[] Every legal action for this seat now (empty if it is not to act): pass, every ascending triple of the hand in lexicographic order; play, the playable cards ascending.
---@field pass_to integer The seat this seat passes to (its left).
---@field passed IntensityCard[] The three cards this seat passed, ascending; empty until the pass is resolved.
---@field penalties integer[] Penalty points per seat so far (tricks plus faults), in seat order.
---@field phase IntensityPhase `"pass"`, `"play"` or `"over"`.
---@field receive_from integer The seat this seat receives from (its right).
---@field received IntensityCard[] The three cards this seat received, ascending; empty until the pass is resolved.
---@field seat integer The seat this observation is for.
---@field trick IntensityCurrentTrick The current trick: its leader and the cards played so far, in order.
---@field tricks IntensityTrick[] Every finished trick, in order.
---@field turn integer? The seat to play a card now (`null` in the pass phase and when the game is over).
---@field variant IntensityVariant `"standard"`.

--- One card, 10..49. Written as its number (`"33"`); in JSON it is the number itself.
---@alias IntensityCard integer

--- The trick being played.
---@class IntensityCurrentTrick
---@field cards IntensityCard[] The cards played so far, in play order (0..=3 of them).
---@field leader integer The seat that leads (or led) it; `cards[i]` was played by seat `(leader + i) % 4`.

--- The stage of the game.
---@alias IntensityPhase
---| "pass" # All four seats choose the cards they pass.
---| "play" # The ten tricks.
---| "over" # The game is over.

--- A finished trick, as the observation shows it.
---@class IntensityTrick
---@field cards IntensityCard[] The four cards in play order.
---@field leader integer The seat that led; `cards[i]` was played by seat `(leader + i) % 4`.
---@field penalty integer The penalty points the winner took with it.
---@field winner integer The seat that won it (played the highest card of the led suit).

--- The variants of Intensity: only the COMP1511 18s1 rules.
---@alias IntensityVariant
---| "standard" # The UNSW COMP1511 18s1 specification (CONTRACT.md §1 intensity).

---@meta
-- cardarena: the ecard observation, for the Lua language server (VS Code: the "Lua"
-- extension by sumneko). Generated from the arena's Rust types by `arena new` (the same
-- text as `arena schema --game ecard --lua`); do not edit.
-- Arrays are 1-based Lua sequences: the entry of seat s is at [s + 1]. JSON null is nil.

--- What one seat sees: everything is public except a card the opponent has chosen in the open play, which appears nowhere (not even whether it has chosen yet). Field by field in `docs/games/ecard.md`.
---@class EcardObservation
---@field game string Always `"ecard"`.
---@field hand EcardCard[] The cards this seat still holds, special card first, then the Citizens.
---@field history EcardRoundRecord[] Every finished round, oldest first.
---@field legal string[] The legal actions: this seat's special card first (if still held), then `"C"` (if a Citizen is still held); empty if this seat is not to act.
---@field max_plays integer The most plays a round can have (3 in `readme`, 5 in `manga`).
---@field opponent_hand EcardCard[] The opponent's remaining cards (public: every played card is revealed), same order.
---@field opponent_side EcardSide The opponent's side in the current round.
---@field phase EcardPhase `play` while the match runs, `over` after the last round.
---@field play integer The open play within the round, 1-based (0 once over).
---@field plays EcardCard[][] The plays of the current round resolved so far (Citizen draws), each `[seat 0, seat 1]`.
---@field round integer The current round, 1..=12 (12 once over).
---@field rounds integer Rounds in the match (12).
---@field scores integer[] Points so far, by seat.
---@field seat integer The seat this observation is for (0 or 1).
---@field side EcardSide This seat's side in the current round.
---@field variant EcardVariant `readme` or `manga`.

--- A card. Its notation (and the action of placing it) is `"E"`, `"C"` or `"S"`.
---@alias EcardCard
---| "E" # The Emperor: beats the Citizen, loses to the Slave.
---| "C" # A Citizen: beats the Slave, loses to the Emperor, draws with a Citizen.
---| "S" # The Slave: beats the Emperor, loses to the Citizen.

--- What the game is waiting for, as named in observations.
---@alias EcardPhase
---| "play" # A play is open: the seats to act place a card.
---| "over" # The match is over.

--- One finished round, as every seat sees it (all played cards are revealed).
---@class EcardRoundRecord
---@field emperor integer The seat that held the Emperor side.
---@field plays EcardCard[][] Every play of the round in order; each play is the two cards by seat `[seat 0, seat 1]`.
---@field points integer[] Points scored in this round, by seat.
---@field result EcardRoundResult How the round ended.
---@field round integer The round's number, 1..=12.
---@field winner integer? The winning seat, `None` (JSON `null`) for a drawn round.

--- How a round ended.
---@alias EcardRoundResult
---| "emperor" # The Emperor side won (E beat C, or C beat S): 1 point to its winner.
---| "slave" # The Slave side won (S beat E): 5 points to its winner.
---| "draw" # `readme` only: the third play was Citizen against Citizen too; nobody scores.

--- Which hand a seat holds in a round.
---@alias EcardSide
---| "emperor" # E + 4 C; a round won by this side scores 1.
---| "slave" # S + 4 C; a round won by this side scores 5.

--- The rule set (CONTRACT.md §1 ecard).
---@alias EcardVariant
---| "readme" # The seed README: at most 3 plays per round, a third Citizen draw ends the round drawn.
---| "manga" # As in the manga: plays go on until the round is decided (at most 5).

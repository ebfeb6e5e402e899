// cardarena: the ecard observation, for JavaScript and TypeScript editors. Generated from
// the arena's Rust types (`arena schema --game ecard --ts`); do not edit.
// Arrays are 0-based: the entry of seat s is at [s]. Integers are numbers.

/** What one seat sees: everything is public except a card the opponent has chosen in the open play, which appears nowhere (not even whether it has chosen yet). Field by field in `docs/games/ecard.md`. */
export interface EcardObservation {
  /** Always `"ecard"`. */
  game: string;
  /** The cards this seat still holds, special card first, then the Citizens. */
  hand: EcardCard[];
  /** Every finished round, oldest first. */
  history: EcardRoundRecord[];
  /** The legal actions: this seat's special card first (if still held), then `"C"` (if a Citizen is still held); empty if this seat is not to act. */
  legal: string[];
  /** The most plays a round can have (3 in `readme`, 5 in `manga`). */
  max_plays: number;
  /** The opponent's remaining cards (public: every played card is revealed), same order. */
  opponent_hand: EcardCard[];
  /** The opponent's side in the current round. */
  opponent_side: EcardSide;
  /** `play` while the match runs, `over` after the last round. */
  phase: EcardPhase;
  /** The open play within the round, 1-based (0 once over). */
  play: number;
  /** The plays of the current round resolved so far (Citizen draws), each `[seat 0, seat 1]`. */
  plays: EcardCard[][];
  /** The current round, 1..=12 (12 once over). */
  round: number;
  /** Rounds in the match (12). */
  rounds: number;
  /** Points so far, by seat. */
  scores: number[];
  /** The seat this observation is for (0 or 1). */
  seat: number;
  /** This seat's side in the current round. */
  side: EcardSide;
  /** `readme` or `manga`. */
  variant: EcardVariant;
}

/** A card. Its notation (and the action of placing it) is `"E"`, `"C"` or `"S"`. */
export type EcardCard =
  | "E" // The Emperor: beats the Citizen, loses to the Slave.
  | "C" // A Citizen: beats the Slave, loses to the Emperor, draws with a Citizen.
  | "S" // The Slave: beats the Emperor, loses to the Citizen.
  ;

/** What the game is waiting for, as named in observations. */
export type EcardPhase =
  | "play" // A play is open: the seats to act place a card.
  | "over" // The match is over.
  ;

/** One finished round, as every seat sees it (all played cards are revealed). */
export interface EcardRoundRecord {
  /** The seat that held the Emperor side. */
  emperor: number;
  /** Every play of the round in order; each play is the two cards by seat `[seat 0, seat 1]`. */
  plays: EcardCard[][];
  /** Points scored in this round, by seat. */
  points: number[];
  /** How the round ended. */
  result: EcardRoundResult;
  /** The round's number, 1..=12. */
  round: number;
  /** The winning seat, `None` (JSON `null`) for a drawn round. */
  winner?: number | null;
}

/** How a round ended. */
export type EcardRoundResult =
  | "emperor" // The Emperor side won (E beat C, or C beat S): 1 point to its winner.
  | "slave" // The Slave side won (S beat E): 5 points to its winner.
  | "draw" // `readme` only: the third play was Citizen against Citizen too; nobody scores.
  ;

/** Which hand a seat holds in a round. */
export type EcardSide =
  | "emperor" // E + 4 C; a round won by this side scores 1.
  | "slave" // S + 4 C; a round won by this side scores 5.
  ;

/** The rule set (CONTRACT.md §1 ecard). */
export type EcardVariant =
  | "readme" // The seed README: at most 3 plays per round, a third Citizen draw ends the round drawn.
  | "manga" // As in the manga: plays go on until the round is decided (at most 5).
  ;

/** What `init(info)` receives before the first decision. */
export interface InitInfo {
  game: string;
  variant: string;
  seat: number;
  players: number;
  seed: number;
}

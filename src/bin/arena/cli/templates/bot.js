// {{NAME}}: a cardarena bot for {{GAME}}, in JavaScript (run by the arena's own QuickJS-ng:
// nothing to install).
//
//   arena play --game {{GAME}} --bots {{BOTS}}      # one match, with the game log
//   arena play --game {{GAME}} --bots {{HUMAN_BOTS}}      # you against it, in the terminal
//   arena check bot.js --game {{GAME}}                  # hundreds of matches: faults, fuel, win rate
//
// The arena calls act(obs) for every decision of your seat and plays the string you return,
// which must be one of obs.legal (anything else loses the match: `arena docs bot-api`,
// verdicts). The rules, the action notation and every field: `arena docs {{GAME}}`.
// types/{{GAME}}.d.ts describes the observation for your editor (VS Code reads the JSDoc
// below and completes `obs.`).
//
// The observation ({{CLASS}}):
{{FIELDS}}
//
// Arrays are 0-based: the entry of seat s is at index s. JSON null is null.
// Globals keep their values between the decisions of one match; every match starts afresh.
// console.log(...) writes to the bot's log (shown by `arena play`).
// @ts-check

/**
 * Called once before the first decision (optional).
 * @param {import("./types/{{GAME}}").InitInfo} info
 */
function init(info) {
  // Math.random is seeded from the match seed and your seat: the same match plays the same way.
}

/**
 * Called for every decision of your seat: return one string of obs.legal.
 * @param {import("./types/{{GAME}}").{{CLASS}}} obs
 * @returns {string}
 */
function act(obs) {
  // A first strategy: any legal action, at random. Replace it with something clever.
  return obs.legal[Math.floor(Math.random() * obs.legal.length)];
}

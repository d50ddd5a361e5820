/** What `validate --calibrate` can be asked to play, for its flags: light to load (the command loads calibrate.ts only when it runs). */
export {ADVERSARIES, type AdversaryName} from '../agent/scripted-model-names.js'

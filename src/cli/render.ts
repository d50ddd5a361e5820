/** Renderings commands print: the gate's table and the verdict line are the same in `run`'s output and `gate`'s. */
export {renderGateTable} from '../report/render/markdown.js'
export {verdictLine} from '../report/gate/verdict.js'

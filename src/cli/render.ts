/** Renderings commands print: the gate's table is the same in `run`'s output and `gate`'s. */
export {renderGateTable} from '../report/render/markdown.js'

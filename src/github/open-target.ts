/** The one place that chooses where GitHub is: the configuration's `target`, opened. */
import type {LoadedConfig} from '../config/load-config.js'
import {openLiveTarget} from './live-target.js'
import {openSandboxTarget} from './sandbox-target.js'
import type {GitHubTarget, TargetOptions} from './target.js'

/** The configuration's target (`target: sandbox | live`) with its fixture repository, opened: the one place that chooses. */
export function openGitHubTarget(config: LoadedConfig, options: TargetOptions = {}): Promise<GitHubTarget> {
  return config.values.target === 'sandbox' ? openSandboxTarget(config, options) : openLiveTarget(config, options)
}

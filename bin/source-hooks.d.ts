export declare const sourceHooks: (hooks?: Record<string, string>) => Record<string, string>

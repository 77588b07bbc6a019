export declare const E2E_PORT: number;

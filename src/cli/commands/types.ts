export interface Command {
  summary: string;
  run(args: string[]): Promise<number>;
}

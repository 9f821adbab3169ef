/** For endpoints that take no query parameters: any parameter is refused by name. */
export class NoQueryDto {}

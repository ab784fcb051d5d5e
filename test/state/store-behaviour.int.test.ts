import { storeBehaviour } from './store-behaviour';
import { storeTable } from './store-table';

const table = storeTable();
beforeAll(() => table.setup());
afterAll(() => table.cleanup());

describe.each(table.stores)('%s store', (_name, make) => storeBehaviour(make));

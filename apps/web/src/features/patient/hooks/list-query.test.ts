import { describe, expect, it } from 'vitest';
import { buildPublished } from '../test-factories';
import { listFieldsOf } from './list-fields';
import { isFiltered, parseUrlQuery, toPageRequest, toUrlSearch } from './list-query';

const fields = listFieldsOf(buildPublished());

describe('list query', () => {
  it('should keep the follow-up status in the address, send it as followupStatus and drop an unknown one', () => {
    const query = parseUrlQuery(new URLSearchParams('fu=due'));
    expect(query.followupStatus).toBe('due');
    expect(toUrlSearch(query).toString()).toBe('fu=due');
    expect(toPageRequest(query, { fieldFilters: [] }, [], 20, false)).toEqual({
      current: 1,
      size: 20,
      followupStatus: 'due',
    });
    expect(isFiltered(query, { fieldFilters: [] })).toBe(true);
    expect(parseUrlQuery(new URLSearchParams('fu=soon')).followupStatus).toBeUndefined();
  });

  it('should read page, sort, filters and CRF filters back from the address it wrote', () => {
    const query = {
      current: 3,
      sortField: 'field:weight',
      sortOrder: 'asc' as const,
      centerId: 'c-2',
      status: 'enrolled' as const,
      enrolDateFrom: '2026-01-01',
      enrolDateTo: '2026-06-30',
      fieldFilters: [
        { fieldKey: 'nyha', op: 'eq' as const, value: '3' },
        { fieldKey: 'weight', op: 'gte' as const, value: '60' },
      ],
    };
    const search = toUrlSearch(query);
    expect(search.toString()).toBe(
      'page=3&sort=field%3Aweight&order=asc&center=c-2&status=enrolled&from=2026-01-01&to=2026-06-30&f.nyha.eq=3&f.weight.gte=60',
    );
    expect(parseUrlQuery(search)).toEqual(query);
  });

  it('should drop what is malformed when an address was edited by hand', () => {
    const query = parseUrlQuery(
      new URLSearchParams(
        'page=-1&size=7&sort=name&status=alive&from=2026-13&f.Weight.gte=1&f.bmi.like=2&center=%3Cx%3E',
      ),
    );
    expect(query).toEqual({ current: 1, fieldFilters: [] });
  });

  it('should send no hospital number, identity number or hospital number sort without patient.pii', () => {
    const url = { current: 1, sortField: 'hospitalNo', sortOrder: 'asc' as const, fieldFilters: [] };
    const hidden = { keyword: 'C01', hospitalNo: 'ZY20', idNumber: '110101196805120013', fieldFilters: [] };
    expect(toPageRequest(url, hidden, [], 20, false)).toEqual({ current: 1, size: 20, keyword: 'C01' });
    expect(toPageRequest(url, hidden, [], 20, true)).toEqual({
      current: 1,
      size: 20,
      keyword: 'C01',
      hospitalNo: 'ZY20',
      idNumber: '110101196805120013',
      sortField: 'hospitalNo',
      sortOrder: 'asc',
    });
  });

  it('should send numbers of number fields as numbers and drop filters of fields no longer listed', () => {
    const body = toPageRequest(
      {
        current: 2,
        sortField: 'field:gone',
        sortOrder: 'asc',
        fieldFilters: [
          { fieldKey: 'weight', op: 'lte', value: '80.5' },
          { fieldKey: 'gone', op: 'eq', value: '1' },
        ],
      },
      {
        keyword: '张三',
        idNumber: '110101196805120013',
        fieldFilters: [{ fieldKey: 'diagnosis', op: 'contains', value: '心衰' }],
      },
      fields,
      50,
      true,
    );
    expect(body).toEqual({
      current: 2,
      size: 50,
      keyword: '张三',
      idNumber: '110101196805120013',
      fieldFilters: [
        { fieldKey: 'weight', op: 'lte', value: 80.5 },
        { fieldKey: 'diagnosis', op: 'contains', value: '心衰' },
      ],
    });
  });
});

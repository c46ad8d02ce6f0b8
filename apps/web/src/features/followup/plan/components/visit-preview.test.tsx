import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { VisitPreview } from './visit-preview';

describe('VisitPreview', () => {
  it('should show the due date and window of a relative visit for the example anchor', () => {
    render(
      <VisitPreview row={{ offset: 1, offsetUnit: 'month', windowBefore: 3, windowAfter: 3 }} anchor="2027-01-31" />,
    );
    expect(screen.getByText('2027-02-28')).toBeInTheDocument();
    expect(screen.getByText('窗口 2027-02-25 ~ 2027-03-03')).toBeInTheDocument();
  });

  it('should show a dash while the offset is incomplete', () => {
    render(
      <VisitPreview row={{ offset: null, offsetUnit: 'month', windowBefore: 3, windowAfter: 3 }} anchor="2027-01-31" />,
    );
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});

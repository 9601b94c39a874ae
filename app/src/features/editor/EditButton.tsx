/**
 * "Edit" on a space: opens the person's own open change request of the space (or starts one) at the
 * page being read. Part of the reading screens, so it must not import the editor itself.
 */
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useUser } from '../auth/session';
import { openOwnChangeRequest } from './queries';

export function EditButton({ spaceId, pageId }: { spaceId: string; pageId?: string }) {
  const user = useUser();
  const navigate = useNavigate();
  const open = useMutation({
    mutationFn: () => openOwnChangeRequest(spaceId, user.id),
    onSuccess: (changeRequest) => {
      const number = String(changeRequest.number);
      void (pageId
        ? navigate({ to: '/s/$spaceId/~/changes/$number/edit/$pageId', params: { spaceId, number, pageId } })
        : navigate({ to: '/s/$spaceId/~/changes/$number/edit', params: { spaceId, number } }));
    },
  });
  return (
    <>
      <button type="button" onClick={() => open.mutate()} disabled={open.isPending}>
        Edit
      </button>
      {open.error ? (
        <span role="alert" className="error">
          {open.error.message}
        </span>
      ) : null}
    </>
  );
}

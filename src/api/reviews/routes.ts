/**
 * Reviews of a change request (submit, list, get one) and its contributors. Submitting answers 201
 * with Location, as the official document says.
 */
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { serviceContext } from '../../http/service-context.js';
import { PagedList, paginateArray } from '../../lib/paging.js';
import type { BodyInput } from '../comments/body.js';
import { findUsersByIds } from '../users/repo.js';
import { presentContributors, presentReview, reviewPath } from './present.js';
import { commentContributions, editContributions } from './repo.js';
import {
  ChangeRequestParams,
  ChangeRequestReview,
  ContributorList,
  GetReviewQuery,
  ListReviewsQuery,
  ReviewParams,
  SubmitReviewBody,
} from './schemas.js';
import { loadReviews, openChangeRequest, requireReview, submitReview } from './service.js';

const tags = ['change-requests-reviews'];

export default async function reviewRoutes(app: App) {
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/reviews',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'submitChangeRequestReview',
        tags,
        params: ChangeRequestParams,
        body: SubmitReviewBody,
        response: { 201: ChangeRequestReview },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const submitted = await submitReview(serviceContext(app, request), spaceId, changeRequestId, {
        status: request.body.status,
        comment: request.body.comment as BodyInput | undefined,
      });
      const viewer = { urls: app.urls, viewerId: caller(request).user.id };
      const { reviews, view } = await loadReviews(app.db, viewer, submitted);
      const review = requireReview(reviews, submitted.review.id);
      const location = app.urls.api(reviewPath(submitted.space.id, submitted.changeRequest.id, review.id));
      reply.code(201).header('location', location);
      return presentReview(view, submitted.space.id, review);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/reviews',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getReviewsByChangeRequestId',
        tags,
        params: ChangeRequestParams,
        querystring: ListReviewsQuery,
        response: { 200: PagedList(ChangeRequestReview) },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const scope = await openChangeRequest(serviceContext(app, request), spaceId, changeRequestId);
      const viewer = { urls: app.urls, viewerId: caller(request).user.id };
      const { reviews, view } = await loadReviews(app.db, viewer, scope, request.query.format);
      const { outdated } = request.query;
      const selected = outdated === undefined ? reviews : reviews.filter((r) => view.outdated.has(r.id) === outdated);
      const page = paginateArray(selected, (r) => r.id, request.query);
      return { ...page, items: page.items.map((r) => presentReview(view, scope.space.id, r)) };
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestReviewById',
        tags,
        params: ReviewParams,
        querystring: GetReviewQuery,
        response: { 200: ChangeRequestReview },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, reviewId } = request.params;
      const scope = await openChangeRequest(serviceContext(app, request), spaceId, changeRequestId);
      const viewer = { urls: app.urls, viewerId: caller(request).user.id };
      const { reviews, view } = await loadReviews(app.db, viewer, scope, request.query.format);
      return presentReview(view, scope.space.id, requireReview(reviews, reviewId));
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/contributors',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getContributorsByChangeRequestId',
        tags: ['change-request-contributors'],
        params: ChangeRequestParams,
        response: { 200: ContributorList },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { space, changeRequest } = await openChangeRequest(serviceContext(app, request), spaceId, changeRequestId);
      const [edits, comments] = await Promise.all([
        editContributions(app.db, space.id, changeRequest.revision_initial, changeRequest.revision_id),
        commentContributions(app.db, changeRequest.id),
      ]);
      const users = await findUsersByIds(app.db, [...new Set([...edits, ...comments].map((c) => c.userId))]);
      const items = presentContributors(app.urls, users, edits, comments);
      return { items, count: items.length };
    },
  );
}

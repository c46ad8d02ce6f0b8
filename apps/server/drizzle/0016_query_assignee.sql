ALTER TABLE "data_queries" ADD COLUMN "assigned_to" uuid;--> statement-breakpoint
ALTER TABLE "data_queries" ADD CONSTRAINT "data_queries_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_queries_assigned_idx" ON "data_queries" USING btree ("assigned_to","status");--> statement-breakpoint
CREATE INDEX "data_queries_raised_by_idx" ON "data_queries" USING btree ("raised_by","status");--> statement-breakpoint
UPDATE "data_queries" q SET "assigned_to" = CASE WHEN q."origin" = 'auto' THEN q."raised_by" ELSE coalesce(
  (SELECT v."actor_id" FROM "record_value_versions" v WHERE v."record_id" = q."record_id" AND v."path" = q."path"
    AND v."actor_id" IS NOT NULL ORDER BY v."id" DESC LIMIT 1),
  (SELECT r."created_by" FROM "form_records" r WHERE r."id" = q."record_id")) END;

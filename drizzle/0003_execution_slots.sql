CREATE TABLE "execution_slots" (
	"org_id" text NOT NULL,
	"slot" integer NOT NULL,
	"execution_id" uuid,
	CONSTRAINT "execution_slots_org_id_slot_pk" PRIMARY KEY("org_id","slot")
);
--> statement-breakpoint
ALTER TABLE "execution_slots" ADD CONSTRAINT "execution_slots_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;